import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseDescriptor, parseServerUrl, ContractError } from "@/lib/mcp/contract-guards";
import {
  assertStdioAllowed,
  configuredServer,
  listStdioServers,
  loadStdioServers,
  parseStdioConfig,
  StdioConfigError,
} from "./stdio-config.ts";
import { ProxyError } from "../errors/proxy-error.ts";

const dir = mkdtempSync(path.join(tmpdir(), "toolscope-stdio-config-"));
function file(name: string, content: unknown): string {
  const p = path.join(dir, name);
  writeFileSync(p, typeof content === "string" ? content : JSON.stringify(content));
  return p;
}

describe("parseStdioConfig", () => {
  test("reads the mcpServers shape desktop hosts use", () => {
    const { servers, skipped } = parseStdioConfig(
      JSON.stringify({
        mcpServers: {
          everything: { command: "node", args: ["srv.js", "stdio"], env: { DEBUG: "1" } },
          memory: { command: "npx", args: ["-y", "@modelcontextprotocol/server-memory"], cwd: "sub" },
          bare: { command: "/usr/bin/my-server" },
        },
      }),
      "/etc/toolscope/servers.json",
    );
    assert.deepEqual([...servers.keys()], ["everything", "memory", "bare"]);
    assert.deepEqual(servers.get("everything"), { name: "everything", command: "node", args: ["srv.js", "stdio"], env: { DEBUG: "1" } });
    assert.equal(servers.get("memory")?.cwd, "/etc/toolscope/sub", "a relative cwd is resolved against the file's directory");
    assert.deepEqual(servers.get("bare")?.args, []);
    assert.deepEqual(skipped, []);
  });

  test("skips remote, disabled and non-stdio entries with a reason", () => {
    const { servers, skipped } = parseStdioConfig(
      JSON.stringify({
        mcpServers: {
          remote: { url: "https://example.com/mcp" },
          off: { command: "x", disabled: true },
          sse: { type: "sse", url: "https://e.com/sse" },
          ok: { type: "stdio", command: "x" },
        },
      }),
      "f.json",
    );
    assert.deepEqual([...servers.keys()], ["ok"]);
    assert.equal(skipped.length, 3);
    assert.match(skipped.join("\n"), /remote: not a stdio server/);
    assert.match(skipped.join("\n"), /off: disabled/);
  });

  const bad: [string, string, RegExp][] = [
    ["not JSON", "{mcpServers:", /f\.json is not valid JSON/],
    ["an array", "[]", /must hold a JSON object/],
    ["no mcpServers", "{}", /"mcpServers" must be an object/],
    ["mcpServers an array", '{"mcpServers": []}', /"mcpServers" must be an object/],
    ["a bad name", '{"mcpServers": {"has space": {"command": "x"}}}', /mcpServers\.has space: the name must be/],
    ["a name that looks like a path", '{"mcpServers": {"../x": {"command": "x"}}}', /the name must be/],
    ["an entry that is a string", '{"mcpServers": {"a": "node server.js"}}', /mcpServers\.a must be an object with "command"/],
    ["no command", '{"mcpServers": {"a": {"args": []}}}', /mcpServers\.a\.command must be a non-empty string/],
    ["an empty command", '{"mcpServers": {"a": {"command": " "}}}', /mcpServers\.a\.command must be a non-empty string/],
    ["args a string", '{"mcpServers": {"a": {"command": "x", "args": "--flag"}}}', /mcpServers\.a\.args must be an array of strings/],
    [
      "a number in args",
      '{"mcpServers": {"a": {"command": "x", "args": ["ok", 3]}}}',
      /mcpServers\.a\.args\[1\] must be a string, not number/,
    ],
    ["env an array", '{"mcpServers": {"a": {"command": "x", "env": ["A=1"]}}}', /mcpServers\.a\.env must be an object/],
    [
      "a non-string env value",
      '{"mcpServers": {"a": {"command": "x", "env": {"PORT": 3000}}}}',
      /mcpServers\.a\.env\.PORT must be a string/,
    ],
    ["a bad env name", '{"mcpServers": {"a": {"command": "x", "env": {"A-B": "1"}}}}', /"A-B" is not a valid environment variable name/],
    ["a bad cwd", '{"mcpServers": {"a": {"command": "x", "cwd": 7}}}', /mcpServers\.a\.cwd must be a non-empty string/],
  ];
  for (const [what, text, message] of bad) {
    test(`rejects ${what} with a clear error`, () => {
      assert.throws(
        () => parseStdioConfig(text, "f.json"),
        (err: unknown) => err instanceof StdioConfigError && message.test(err.message),
      );
    });
  }
});

describe("loading and listing", () => {
  const local = { mode: "local" as const };
  test("a missing file is an empty list, not an error", async () => {
    const res = await listStdioServers({ ...local, stdioConfigPath: path.join(dir, "absent.json") });
    assert.equal(res.enabled, true);
    assert.deepEqual(res.servers, []);
    assert.match(res.problem ?? "", /No stdio servers configured/);
  });

  test("the listing gives the command's basename and the argument count, never env values or arguments", async () => {
    const p = file("list.json", {
      mcpServers: { everything: { command: "/opt/node/bin/node", args: ["a.js", "--token=SECRET-ARG"], env: { API_KEY: "SECRET-ENV" } } },
    });
    const res = await listStdioServers({ ...local, stdioConfigPath: p });
    assert.deepEqual(res.servers, [{ name: "everything", command: "node", argCount: 2 }]);
    assert.doesNotMatch(JSON.stringify(res), /SECRET/);
  });

  test("an invalid file is reported as the listing's problem", async () => {
    const p = file("bad.json", { mcpServers: { a: { command: 1 } } });
    const res = await listStdioServers({ ...local, stdioConfigPath: p });
    assert.deepEqual(res.servers, []);
    assert.match(res.problem ?? "", /mcpServers\.a\.command must be a non-empty string/);
  });

  test("hosted mode lists nothing and says why", async () => {
    const p = file("hosted.json", { mcpServers: { a: { command: "x" } } });
    const res = await listStdioServers({ mode: "hosted", stdioConfigPath: p });
    assert.deepEqual(res, { enabled: false, servers: [], problem: "stdio servers are only available when Toolscope runs locally." });
  });

  test("an edited file is read again", async () => {
    const p = file("edit.json", { mcpServers: { a: { command: "x" } } });
    assert.deepEqual([...(await loadStdioServers(p)).servers.keys()], ["a"]);
    writeFileSync(p, JSON.stringify({ mcpServers: { a: { command: "x" }, bb: { command: "y" } } }));
    assert.deepEqual([...(await loadStdioServers(p)).servers.keys()], ["a", "bb"]);
  });
});

describe("selection by name only", () => {
  test("hosted mode refuses every stdio request with a 403-style error", async () => {
    assert.throws(
      () => assertStdioAllowed({ mode: "hosted" }),
      (err: unknown) =>
        err instanceof ProxyError && err.kind === "blocked-target" && /only available when Toolscope runs locally/.test(err.message),
    );
    const p = file("h.json", { mcpServers: { a: { command: "x" } } });
    await assert.rejects(
      configuredServer({ mode: "hosted", stdioConfigPath: p }, "stdio:a"),
      (err: unknown) => err instanceof ProxyError && err.kind === "blocked-target",
    );
  });

  test("an unknown name is a bad request that lists the configured names", async () => {
    const p = file("names.json", { mcpServers: { everything: { command: "x" }, memory: { command: "y" } } });
    await assert.rejects(
      configuredServer({ mode: "local", stdioConfigPath: p }, "stdio:nope"),
      (err: unknown) =>
        err instanceof ProxyError &&
        err.kind === "bad-request" &&
        /No stdio server named "nope"/.test(err.message) &&
        /stdio:everything, stdio:memory/.test(err.hint ?? ""),
    );
  });

  test("URLs name a server; anything that looks like a command line is refused", () => {
    assert.equal(parseServerUrl("stdio:everything"), "stdio:everything");
    assert.equal(parseServerUrl(" stdio:my.server_2 "), "stdio:my.server_2");
    for (const url of [
      "stdio:node server.js",
      "stdio:/usr/bin/node",
      "stdio:",
      "stdio:../x",
      "stdio:a;rm -rf /",
      "stdio:npx -y evil",
      "stdio:-rf",
    ]) {
      assert.throws(() => parseServerUrl(url), ContractError, url);
    }
  });

  test("a descriptor keeps stdioId and drops any command a client slips in", () => {
    const d = parseDescriptor({
      v: 1,
      url: "stdio:everything",
      era: "legacy",
      protocolVersion: "2025-11-25",
      stdioId: "0b6c5f7e-1111-4222-8333-444455556666",
      command: "rm",
      args: ["-rf", "/"],
    });
    assert.deepEqual(d, {
      v: 1,
      url: "stdio:everything",
      era: "legacy",
      protocolVersion: "2025-11-25",
      stdioId: "0b6c5f7e-1111-4222-8333-444455556666",
    });
    assert.throws(
      () => parseDescriptor({ v: 1, url: "stdio:everything", era: "legacy", protocolVersion: "2025-11-25", stdioId: "../../etc" }),
      ContractError,
    );
    assert.throws(
      () => parseDescriptor({ v: 1, url: "stdio:everything", era: "legacy", protocolVersion: "2025-11-25", stdioId: 5 }),
      ContractError,
    );
  });
});
