/**
 * The commands: `snapshot`, `lint`, `diff`, `call`, `test` (test-command.ts) and `conformance`. Each parses its flags, works on its target through the one
 * implementation the web app runs (the client core, lib/docs's lints and diff), writes its result to stdout and
 * returns its exit code.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { diffToolLists } from "../docs/diff.ts";
import { listHints, lintServer } from "../docs/lints.ts";
import { isObject } from "../json/guards.ts";
import type { Tool } from "../mcp/contract.ts";
import { diffExitCode, diffJson, diffMarkdown, diffText } from "./diff-report.ts";
import { EXIT, usageError } from "./exit-codes.ts";
import { choice, prepare, type Command, type CommandContext } from "./command-kit.ts";
import { testCommand } from "./test-command.ts";
import { flagTarget, limitsFrom, list, parse, singleTarget, str, type Values } from "./flags.ts";
import { lintExitCode, lintJson, lintSarif, lintText, placeFindings } from "./lint-report.ts";
import { loadTarget, withLiveServer } from "./load-target.ts";
import { snapshotSource, snapshotText } from "./snapshot-file.ts";
import { conformanceExitCode, conformanceJson, conformanceJunit, conformanceText } from "./conformance-report.ts";
import { findSuite, runSuite, suiteNode } from "./conformance-run.ts";
import { positionalTarget, type Target } from "./target.ts";

export { choice, prepare, type Command, type CommandContext } from "./command-kit.ts";

/** `prepare` for a reporting command: also its `--format` and `--fail-on`, each checked against its choices. */
function prepareReport<F extends string, L extends string>(
  name: string,
  args: string[],
  ctx: CommandContext,
  choices: { formats: readonly F[]; levels: readonly L[]; level: L },
) {
  const prepared = prepare(name, args, ctx, { format: { type: "string" }, "fail-on": { type: "string" } });
  const format = choice("format", str(prepared.values.format), choices.formats, choices.formats[0]);
  const failOn = choice("fail-on", str(prepared.values["fail-on"]), choices.levels, choices.level);
  return { ...prepared, format, failOn };
}

const LINT_CHOICES = { formats: ["text", "json", "sarif"], levels: ["error", "warning", "never"], level: "error" } as const;
const DIFF_CHOICES = { formats: ["text", "json", "markdown"], levels: ["breaking", "compatible", "never"], level: "breaking" } as const;

const SERVER_USAGE = `  <url>                      a server's endpoint (Streamable HTTP of either era, or HTTP+SSE)
  --stdio "<command>"        a local server started from this command line
  --config <file> --server <name>   an entry of an mcpServers config file
  -H, --header "Name: value" a request header (repeatable; prefer --header-env in CI)
  --header-env Name=VAR      a request header whose value is the environment variable VAR
  --bearer-env VAR           Authorization: Bearer with the token in the environment variable VAR
  --client-id <id>           OAuth for machines: the client credentials grant when the server answers 401, with
  --client-secret-env VAR    the client secret in VAR (client_secret_basic), or
  --private-key-file <pem>   a private key signing the client assertion (private_key_jwt; or --private-key-env VAR)
  --signing-alg <alg>        the assertion's algorithm (default from the key: ES256, RS256, EdDSA…)
  --scope <scope>            the scope to ask for (default: the server's challenge)
  --auth-issuer <url>        the only authorization server the credentials may go to
  --timeout <ms>             each network step's bound (default 30000)
  -q, --quiet                no progress on stderr`;

const snapshot: Command = {
  summary: "write a server's definitions as canonical JSON",
  usage: `toolscope snapshot <server> [--out file.json]

The server's tools (after the client rules), prompts, resources, resource templates, server info and the list's
ttlMs/cacheScope, as deterministic JSON: the same server gives the same bytes.

${SERVER_USAGE}
  -o, --out <file>           write the snapshot here instead of stdout`,
  async run(args, ctx) {
    const { values, positionals, access, limits } = prepare("snapshot", args, ctx, { out: { type: "string", short: "o" } });
    const target = singleTarget("snapshot", values, positionals);
    const snap = await loadTarget(target, access, limits, ctx.out);
    const text = snapshotText(snap);
    const file = str(values.out);
    if (file) {
      writeFileSync(file, text);
      ctx.out.progress(
        `wrote ${file}: ${snap.list.tools.length} tools, ${snap.prompts.length} prompts, ${snap.resources.length} resources`,
      );
    } else ctx.out.result(text);
    return EXIT.ok;
  },
};

const lint: Command = {
  summary: "the docs' lints on a server or snapshot",
  usage: `toolscope lint <server | snapshot.json> [--format text|json|sarif] [--fail-on error|warning|never]

The same lints the docs pages show. With a snapshot file, each finding is located at a line and column of it (SARIF
for code scanning annotates the pull request there).

${SERVER_USAGE}
  --format <f>               text (default), json or sarif (SARIF 2.1.0)
  --fail-on <level>          exit 1 on findings at or above: error (default), warning, or never`,
  async run(args, ctx) {
    const { values, positionals, access, limits, format, failOn } = prepareReport("lint", args, ctx, LINT_CHOICES);
    const target = singleTarget("lint", values, positionals);
    const snap = await loadTarget(target, access, limits, ctx.out);
    const result = lintServer(snap.list.tools, listHints(snap.server, snap.list));
    const file = target.kind === "snapshot" ? target.file : undefined;
    const places = target.kind === "snapshot" ? placeFindings(target.text, result.findings) : result.findings.map(() => undefined);
    ctx.out.result(
      format === "sarif"
        ? lintSarif(result, file, places, { version: ctx.version })
        : format === "json"
          ? lintJson(result, file, places)
          : lintText(result, file, places),
    );
    return lintExitCode(result, failOn);
  },
};

const diff: Command = {
  summary: "changes between two snapshots, or a snapshot and a live server",
  usage: `toolscope diff <before> <after> [--format text|json|markdown] [--fail-on breaking|compatible|never]

Each side is a snapshot file or a server URL; with --stdio or --config/--server the live server is the after side
(toolscope diff tools.snapshot.json --stdio "node server.js"). Changes are classified as on the web's diff page.

${SERVER_USAGE}
  --format <f>               text (default), json, or markdown (for a pull-request comment)
  --fail-on <level>          exit 1 on: breaking changes (default), any compatible change too, or never`,
  async run(args, ctx) {
    const { values, positionals, access, limits, format, failOn } = prepareReport("diff", args, ctx, DIFF_CHOICES);
    const live = flagTarget(values);
    const sides: Target[] = [];
    try {
      for (const p of positionals) sides.push(positionalTarget(p));
      if (live) sides.push(live);
      if (sides.length !== 2)
        throw usageError(
          `diff compares two sides: ${sides.length} given.`,
          "Give a before and an after: two snapshot files or URLs, or one snapshot and --stdio/--config for the live server.",
        );
    } catch (err) {
      for (const s of sides) if (s.kind === "live") s.cleanup();
      throw err;
    }
    const before = await loadTarget(sides[0], access, limits, ctx.out);
    const after = await loadTarget(sides[1], access, limits, ctx.out);
    const result = diffToolLists(before.list.tools, after.list.tools);
    const [a, b] = [sides[0].label, sides[1].label];
    ctx.out.result(
      format === "markdown" ? diffMarkdown(result, a, b) : format === "json" ? diffJson(result, a, b) : diffText(result, a, b),
    );
    return diffExitCode(result, failOn);
  },
};

/** JSON from a flag or a file, as an object. */
function jsonObject(flag: string, text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw usageError(`${flag} is not JSON: ${(err as Error).message}.`, `e.g. ${flag} '{"query": "bug"}'`);
  }
  if (!isObject(value)) throw usageError(`${flag} must be a JSON object.`);
  return value;
}

const call: Command = {
  summary: "send one request (a tools/call, or any method) and print the answer",
  usage: `toolscope call <server> --tool <name> [--args '{…}' | --args-file f.json]
toolscope call <server> --method <method> [--params '{…}']

Prints the JSON-RPC response. Exits 1 when the result is a tool error (isError) or the answer a JSON-RPC error.

${SERVER_USAGE}
  --tool <name>              call this tool (tools/call)
  --args <json>              its arguments; --args-file reads them from a file
  --method <method>          send this method instead (e.g. resources/read)
  --params <json>            its params`,
  async run(args, ctx) {
    const { values, positionals, access, limits } = prepare("call", args, ctx, {
      tool: { type: "string" },
      args: { type: "string" },
      "args-file": { type: "string" },
      method: { type: "string" },
      params: { type: "string" },
    });
    const tool = str(values.tool);
    const method = str(values.method);
    if ((tool === undefined) === (method === undefined)) throw usageError("call needs --tool <name> or --method <method> (one of them).");
    if (values.args !== undefined && values["args-file"] !== undefined)
      throw usageError("--args and --args-file both give the arguments; use one.");
    const message = tool !== undefined ? toolCall(tool, values) : { jsonrpc: "2.0", id: 1, method, ...paramsOf(values) };
    const target = singleTarget("call", values, positionals);
    if (target.kind !== "live") throw usageError("call needs a live server, not a snapshot file.");
    return withLiveServer(target, access, limits, ctx.out, async (server) => {
      let tools: Tool[] | undefined;
      const findTool = async (name: string) => (tools ??= (await server.tools()).tools).find((t) => t.name === name);
      const response = await server.send(message, findTool);
      ctx.out.result(`${JSON.stringify(response, null, 2)}\n`);
      if (!response || "error" in response) return EXIT.findings;
      return isObject(response.result) && response.result.isError === true ? EXIT.findings : EXIT.ok;
    });
  },
};

function toolCall(name: string, values: Values): Record<string, unknown> {
  const text = str(values.args);
  const file = str(values["args-file"]);
  let args: Record<string, unknown> = {};
  if (text !== undefined) args = jsonObject("--args", text);
  if (file !== undefined) args = jsonObject(`--args-file ${file}`, readText(file));
  return { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } };
}

function paramsOf(values: Values): { params?: Record<string, unknown> } {
  const text = str(values.params);
  return text === undefined ? {} : { params: jsonObject("--params", text) };
}

function readText(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch {
    throw usageError(`${file}: cannot read it.`);
  }
}

const conformance: Command = {
  summary: "the official conformance suite's server scenarios against a server",
  usage: `toolscope conformance <url> [--spec-version 2026-07-28] [--scenario name]... [--format text|json|junit]

Runs @modelcontextprotocol/conformance's server scenarios against the server at <url> (Streamable HTTP) and reports
each scenario's checks. The suite is not bundled: install it beside your project (npm install --no-save
@modelcontextprotocol/conformance) or name its folder with --suite-path; it runs on Node 22 or later (this Node, or
--node <path>). Exit 1 when a check failed.

  --spec-version <v>         the scenarios of this protocol version (default: the suite's)
  --scenario <name>          one scenario (repeatable); default: the suite's active set
  --suite <set>              active (default), all, draft or pending
  --format <f>               text (default), json, or junit (JUnit XML, a test suite per scenario)
  --warnings-fail            count WARNING checks as failures too
  --suite-path <dir>         where the suite is installed
  --node <path>              a Node 22+ binary to run the suite on
  --timeout <ms>             each scenario's bound (default 30000)
  -q, --quiet                no progress on stderr`,
  async run(args, ctx) {
    const { values, positionals } = parse("conformance", args, {
      "spec-version": { type: "string" },
      scenario: { type: "string", multiple: true },
      suite: { type: "string" },
      format: { type: "string" },
      "warnings-fail": { type: "boolean" },
      "suite-path": { type: "string" },
      node: { type: "string" },
      timeout: { type: "string" },
      quiet: { type: "boolean", short: "q" },
      help: { type: "boolean", short: "h" },
    });
    ctx.out.quiet = values.quiet === true;
    const format = choice("format", str(values.format), ["text", "json", "junit"] as const, "text");
    if (positionals.length !== 1 || !/^https?:\/\//i.test(positionals[0]))
      throw usageError(
        "conformance needs one server URL (http or https).",
        "The suite tests Streamable HTTP servers: start yours and give its endpoint.",
      );
    const url = positionals[0];
    const suite = choice("suite", str(values.suite), ["active", "all", "draft", "pending"] as const, "active");
    const warningsFail = values["warnings-fail"] === true;
    const results = await runSuite({
      node: suiteNode(str(values.node)),
      script: findSuite(str(values["suite-path"]), process.cwd()),
      url,
      specVersion: str(values["spec-version"]),
      scenarios: list(values.scenario),
      suite,
      timeoutMs: limitsFrom(values).timeoutMs,
      progress: (line) => ctx.out.progress(line),
    });
    const label = snapshotSource(url);
    ctx.out.result(
      format === "junit"
        ? conformanceJunit(results, label, warningsFail)
        : format === "json"
          ? conformanceJson(results, label)
          : conformanceText(results, warningsFail),
    );
    return conformanceExitCode(results, warningsFail);
  },
};

export const COMMANDS: Record<string, Command> = { snapshot, lint, diff, call, test: testCommand, conformance };
