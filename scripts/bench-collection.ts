/**
 * Benchmark: a 200-call collection against the built-in demo over HTTP, run by `toolscope test` as a child process
 * (start-up, connect and tools/list included, as a pipeline runs it), beside a floor: the same 200 calls sent directly
 * with the SDK's client from this process. Goal (issue 32): ≤ 20 s.
 *
 *   node --import tsx scripts/bench-collection.ts [--cycles 50]
 *
 * Each cycle is four calls: create an issue (its id captured), read it back, assign it to a team, read it again.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { createDemoServerHandler } from "../lib/demo/server.ts";
import { serveFetchHandler } from "../lib/demo/testing/node-http-adapter.ts";
import { writeCollection } from "../lib/collections/write-collection.ts";
import type { Collection, CollectionCall } from "../lib/collections/format.ts";

const i = process.argv.indexOf("--cycles");
const CYCLES = i >= 0 ? Number(process.argv[i + 1]) : 50;
const GOAL_MS = 20_000;
const TEXT = "/result/content/0/text";

function cycle(n: number): CollectionCall[] {
  const id = `{{id${n}}}`;
  const call = (name: string, tool: string, args: Record<string, unknown>) => ({
    jsonrpc: "2.0",
    method: "tools/call",
    params: { name: tool, arguments: args },
  });
  return [
    {
      name: `${n} create`,
      request: call("create", "create_issue", { title: `Bench issue ${n}` }),
      expect: [{ kind: "is-error", value: false }],
      capture: { [`id${n}`]: `${TEXT}/id` },
    },
    {
      name: `${n} read`,
      request: call("read", "get_issue", { issue_id: id }),
      expect: [{ kind: "equals", pointer: `${TEXT}/id`, value: id }],
    },
    {
      name: `${n} assign`,
      request: call("assign", "assign_issue", { issue_id: id, assignee: { team: "platform" } }),
      expect: [{ kind: "is-error", value: false }],
    },
    {
      name: `${n} check`,
      request: call("check", "get_issue", { issue_id: id }),
      expect: [{ kind: "equals", pointer: `${TEXT}/assignee/team`, value: "platform" }],
    },
  ];
}

const demo = await serveFetchHandler(createDemoServerHandler());
const dir = mkdtempSync(join(tmpdir(), "toolscope-bench-collection-"));
try {
  const collection: Collection = {
    format: "toolscope.collection/1",
    name: "bench",
    calls: Array.from({ length: CYCLES }, (_, n) => cycle(n)).flat(),
  };
  const file = join(dir, "bench.json");
  writeFileSync(file, writeCollection(collection));

  const started = performance.now();
  const run = await new Promise<{ code: number; stdout: string }>((resolve) =>
    execFile(
      process.execPath,
      ["bin/toolscope.mjs", "test", file, "--server", demo.url.toString(), "--format", "json", "-q"],
      { env: { ...process.env, NODE_OPTIONS: "" }, maxBuffer: 64 * 1024 * 1024 },
      (err, stdout) => resolve({ code: err ? ((err as { code?: number }).code ?? -1) : 0, stdout }),
    ),
  );
  const cliMs = performance.now() - started;
  const summary = JSON.parse(run.stdout).summary;

  const floorStarted = performance.now();
  const client = new Client({ name: "toolscope-bench", version: "1.0.0" }, { versionNegotiation: { mode: "auto" } });
  await client.connect(new StreamableHTTPClientTransport(demo.url));
  const textOf = (r: unknown) => JSON.parse((r as { content: { text: string }[] }).content[0].text);
  for (let n = 0; n < CYCLES; n++) {
    const { id } = textOf(await client.callTool({ name: "create_issue", arguments: { title: `Floor issue ${n}` } }));
    await client.callTool({ name: "get_issue", arguments: { issue_id: id } });
    await client.callTool({ name: "assign_issue", arguments: { issue_id: id, assignee: { team: "platform" } } });
    await client.callTool({ name: "get_issue", arguments: { issue_id: id } });
  }
  await client.close();
  const floorMs = performance.now() - floorStarted;

  const calls = collection.calls.length;
  console.log(`toolscope test, ${calls} calls (child process, exit ${run.code}): ${(cliMs / 1000).toFixed(2)} s`);
  console.log(
    `  ${summary.passed} passed, ${summary.failed} failed, ${summary.errors} errors; the run itself ${(summary.durationMs / 1000).toFixed(2)} s`,
  );
  console.log(`floor, the same ${calls} calls with the SDK client in-process: ${(floorMs / 1000).toFixed(2)} s`);
  console.log(`goal ≤ ${GOAL_MS / 1000} s: ${cliMs <= GOAL_MS ? "met" : "NOT met"}`);
  if (run.code !== 0 || cliMs > GOAL_MS) process.exitCode = 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
  await demo.close();
}
