/**
 * `toolscope test` end to end: bin/toolscope.mjs as a child process against the built-in demo served over HTTP on a
 * loopback port, running docs/collections.md's example (create an issue, read it back by the captured id, assign it,
 * check the update), then the same collection with one expectation the server does not meet, and a broken file.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createDemoServerHandler } from "@/lib/demo/server";
import { serveFetchHandler, type ServedHandler } from "@/lib/demo/testing/node-http-adapter";
import { asksHttpHandler } from "@/lib/upstream/testing/asks-server";
import type { Collection, CollectionCall } from "../collections/format.ts";
import { writeCollection } from "../collections/write-collection.ts";
import { exampleCollection } from "../collections/testing/example-collection.ts";
import { purgeCollection } from "../collections/testing/purge-collection.ts";
import { EXIT } from "./exit-codes.ts";
import { junitSchemaErrors } from "./testing/junit-schema.ts";

let demo: ServedHandler;
let dir: string;

before(async () => {
  demo = await serveFetchHandler(createDemoServerHandler());
  dir = mkdtempSync(join(tmpdir(), "toolscope-collection-test-"));
});
after(async () => {
  await demo?.close();
  rmSync(dir, { recursive: true, force: true });
});

function toolscope(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ["bin/toolscope.mjs", ...args],
      { env: { ...process.env, NODE_OPTIONS: "" }, timeout: 60_000, maxBuffer: 16 * 1024 * 1024 },
      (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? -1) : 0, stdout, stderr }),
    );
  });
}

function write(name: string, text: string): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

test("the example collection against the demo: every call passes; JSON and JUnit reports", async () => {
  const file = write("lifecycle.json", writeCollection(exampleCollection()));
  const json = await toolscope(["test", file, "--server", demo.url.toString(), "--format", "json"]);
  assert.equal(json.code, EXIT.ok, json.stdout + json.stderr);
  const report = JSON.parse(json.stdout);
  assert.deepEqual(
    report.calls.map((c: { name: string; status: string }) => `${c.name}: ${c.status}`),
    exampleCollection().calls.map((c) => `${c.name}: passed`),
  );
  const id = report.calls[0].captured.id;
  assert.equal(typeof id, "number", "the id is captured as a number");
  assert.deepEqual(report.calls[1].request.params.arguments, { issue_id: id }, "and sent on as one");
  assert.equal(report.summary.passed, 5);
  assert.match(json.stderr, /passed {2}create an issue/);

  const junit = await toolscope(["test", file, "--server", demo.url.toString(), "--format", "junit", "-q"]);
  assert.equal(junit.code, EXIT.ok, junit.stderr);
  assert.equal(junit.stderr, "");
  assert.deepEqual(await junitSchemaErrors(junit.stdout), [], "valid against the Jenkins JUnit schema");
  assert.match(junit.stdout, /<testsuite name="Issue lifecycle" tests="5" failures="0" errors="0" skipped="0"/);

  const grep = await toolscope(["test", file, "--server", demo.url.toString(), "--grep", "^create|search", "-q"]);
  assert.equal(grep.code, EXIT.ok, grep.stdout);
  assert.match(grep.stdout, /^2 calls: 2 passed, 0 failed, 0 errors, 0 skipped/m);
});

test("a field the server does not return as expected: the call fails naming the expectation; exit findings", async () => {
  const changed = exampleCollection();
  changed.calls[3].expect[0] = { kind: "equals", pointer: "/result/content/0/text/assignee/team", value: "support" };
  const file = write("changed.json", writeCollection(changed));
  const text = await toolscope(["test", file, "--server", demo.url.toString(), "-q"]);
  assert.equal(text.code, EXIT.findings, text.stdout + text.stderr);
  assert.match(text.stdout, /FAIL check the update/);
  assert.match(text.stdout, /✗ \/result\/content\/0\/text\/assignee\/team equals "support": expected "support", got "platform"/);
  assert.match(text.stdout, /5 calls: 4 passed, 1 failed, 0 errors, 0 skipped/);

  const junit = await toolscope(["test", file, "--server", demo.url.toString(), "--format", "junit", "-q", "--bail"]);
  assert.equal(junit.code, EXIT.findings);
  assert.deepEqual(await junitSchemaErrors(junit.stdout), []);
  assert.match(junit.stdout, /<failure message="\/result\/content\/0\/text\/assignee\/team equals &quot;support&quot;: expected/);
  assert.match(junit.stdout, /<skipped>not run: --bail after "check the update" failed<\/skipped>/);
});

test("a file that is not a valid collection: exit usage, one line naming line:column and the problem", async () => {
  const text = writeCollection(exampleCollection()).replace(
    '"kind": "latency",\n          "maxMs": 5000',
    '"kind": "latency",\n          "maxMs": "fast"',
  );
  const file = write("bad.json", text);
  const run = await toolscope(["test", file, "--server", demo.url.toString()]);
  assert.equal(run.code, EXIT.usage, run.stderr);
  const line = text.split("\n").findIndex((l) => l.includes('"fast"')) + 1;
  assert.match(run.stderr, new RegExp(`^toolscope: error: .*bad\\.json:${line}:20: /calls/0/expect/4/maxMs: maxMs must be integer$`, "m"));
  assert.equal(run.stdout, "");
  const noServer = await toolscope(["test", write("ok.json", writeCollection(exampleCollection()))]);
  assert.equal(noServer.code, EXIT.usage);
  assert.match(noServer.stderr, /test needs a server: the collection names none/);
});

test("server requests answered from the collection: an MRTR round (2026-07-28) and an elicitation sent mid-call (2025)", async () => {
  const asks = await serveFetchHandler(asksHttpHandler());
  try {
    const elicit = (name: string, answers?: Record<string, unknown>): CollectionCall => ({
      name,
      request: { jsonrpc: "2.0", method: "tools/call", params: { name: "ask-elicit", arguments: {} } },
      expect: [{ kind: "no-error" }],
      capture: { [name.replace(/\W/g, "")]: "/result/content/0/text/answer/action" },
      ...(answers ? { answers } : {}),
    });
    const legacy: Collection = {
      format: "toolscope.collection/1",
      name: "asks",
      calls: [
        elicit("prepared", { "elicitation/create": { action: "accept", content: { name: "Ada" } } }),
        // Nobody to ask: the unattended client's answer (cancel), never a hung run.
        elicit("unprepared"),
      ],
    };
    const run = await toolscope([
      "test",
      write("asks.json", writeCollection(legacy)),
      "--server",
      asks.url.toString(),
      "--format",
      "json",
      "-q",
    ]);
    assert.equal(run.code, EXIT.ok, run.stdout + run.stderr);
    const report = JSON.parse(run.stdout);
    assert.deepEqual(
      report.calls[0].response.result.content[0].text,
      JSON.stringify({ answer: { action: "accept", content: { name: "Ada" } } }),
    );
    assert.deepEqual(report.calls[1].captured, { unprepared: "cancel" });

    // The demo's purge asks for confirmation as an MRTR round on 2026-07-28: answered by the request's key.
    const mrtr = await toolscope([
      "test",
      write("purge.json", writeCollection(purgeCollection())),
      "--server",
      demo.url.toString(),
      "--format",
      "json",
      "-q",
    ]);
    assert.equal(mrtr.code, EXIT.findings, mrtr.stderr);
    const calls = JSON.parse(mrtr.stdout).calls;
    assert.deepEqual(
      calls.map((c: { status: string }) => c.status),
      ["passed", "passed", "error", "passed"],
      mrtr.stdout,
    );
    // Without a prepared answer the command line has nobody to ask: that call stops, the run goes on.
    assert.equal(calls[2].error, "needs input: confirm");
  } finally {
    await asks.close();
  }
});
