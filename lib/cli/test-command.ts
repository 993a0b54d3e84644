/**
 * `toolscope test <collection.json>`: a collection's calls against a live server through the client core the other
 * commands use, checked by the runner the playground shares (lib/collections), reported as text, JSON or JUnit XML.
 * Header values come from the flags and the environment, never from the file; the file only names the headers the
 * server needs, and a run without one of them is refused before anything is sent.
 */
import { readFileSync } from "node:fs";
import type { Tool } from "../mcp/contract.ts";
import { formatProblem, missingHeaders, parseCollection, runCollection, type Collection } from "../collections/index.ts";

import { collectionAsker } from "./collection-asker.ts";
import { collectionExitCode, collectionJson, collectionJunit, collectionText } from "./collection-report.ts";
import { choice, prepare, type Command } from "./command-kit.ts";
import { usageError } from "./exit-codes.ts";
import { flagTarget, str, type Values } from "./flags.ts";
import { withLiveServer } from "./load-target.ts";
import { positionalTarget, type Target } from "./target.ts";

const FORMATS = ["text", "json", "junit"] as const;

/** The collection in `file`, or a usage error naming the first problem at its line and column. */
function readCollection(file: string): Collection {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    throw usageError(`${file}: cannot read it.`);
  }
  const parsed = parseCollection(text);
  if (!parsed.ok) {
    const more = parsed.problems.length - 1;
    throw usageError(
      `${formatProblem(file, parsed.problems[0])}`,
      more > 0 ? `${more} more problem${more === 1 ? "" : "s"} after it; the format is in docs/collections.md.` : undefined,
    );
  }
  return parsed.collection;
}

/**
 * The server: --stdio, --config with --server, a --server URL, else the collection's environment.server. (`--server`
 * alone is a URL here; with --config it stays the entry's name, as in the other commands.)
 */
function serverTarget(values: Values, collection: Collection): Extract<Target, { kind: "live" }> {
  const hint = 'Give --server https://…/mcp, --stdio "command", --config file --server name, or environment.server in the file.';
  if (str(values.config) !== undefined || str(values.stdio) !== undefined) return flagTarget(values) as Extract<Target, { kind: "live" }>;
  const url = str(values.server) ?? collection.environment?.server;
  if (url === undefined) throw usageError("test needs a server: the collection names none.", hint);
  if (!/^https?:\/\//i.test(url)) throw usageError(`--server ${JSON.stringify(url)}: test needs an http or https URL.`, hint);
  return positionalTarget(url) as Extract<Target, { kind: "live" }>;
}

export const testCommand: Command = {
  summary: "run a collection's calls and check what each answer must hold",
  usage: `toolscope test <collection.json> [--server <url>] [--grep <pattern>] [--timeout <ms>] [--format text|json|junit] [--bail]

Runs the calls of a collection file (docs/collections.md) in order against the server, with the collection's
variables and captures, and checks each call's expectations. Exit 0 when every call passed, 1 when one failed, could
not run or was skipped, 2 when the file is not a valid collection (its line:column and the problem are printed).

  <collection.json>          the collection file
  --server <url>             the server (default: the collection's environment.server); or --stdio / --config
  --grep <pattern>           only the calls whose name matches this regular expression
  --timeout <ms>             each call's bound, and each network step's (default 30000); a call's timeoutMs wins
  --format <f>               text (default), json (the run's report), or junit (JUnit XML, a test case per call)
  --bail                     stop at the first call that does not pass (the rest are reported skipped)
  --stdio "<command>"        a local server started from this command line
  --config <file> --server <name>   an entry of an mcpServers config file
  -H, --header "Name: value" a request header (repeatable; prefer --header-env in CI)
  --header-env Name=VAR      a request header whose value is the environment variable VAR
  --bearer-env VAR           Authorization: Bearer with the token in the environment variable VAR
  -q, --quiet                no progress on stderr`,
  async run(args, ctx) {
    const { values, positionals, access, limits } = prepare("test", args, ctx, {
      grep: { type: "string" },
      format: { type: "string" },
      bail: { type: "boolean" },
    });
    const format = choice("format", str(values.format), FORMATS, "text");
    if (positionals.length !== 1)
      throw usageError(`test runs one collection file: ${positionals.length} given.`, "toolscope test calls.json --server https://…/mcp");
    const file = positionals[0];
    const collection = readCollection(file);
    let grep: RegExp | undefined;
    const pattern = str(values.grep);
    if (pattern !== undefined) {
      try {
        grep = new RegExp(pattern);
      } catch (err) {
        throw usageError(`--grep ${JSON.stringify(pattern)} is not a regular expression: ${(err as Error).message}.`);
      }
    }
    const missing = missingHeaders(collection, Object.keys(access.headers));
    if (missing.length)
      throw usageError(
        `the collection needs the header${missing.length === 1 ? "" : "s"} ${missing.join(", ")}.`,
        `Give ${missing.length === 1 ? "it" : "each"} with --header-env ${missing[0]}=VAR (or --bearer-env VAR for Authorization).`,
      );
    const target = serverTarget(values, collection);
    return withLiveServer(target, access, limits, ctx.out, async (server) => {
      let tools: Promise<Tool[]> | undefined;
      const listTools = () => (tools ??= server.tools().then((list) => list.tools));
      const findTool = async (name: string) => (await listTools()).find((t) => t.name === name);
      const report = await runCollection(collection, {
        send: async (message, options) => {
          const started = performance.now();
          const { answers, ...bounds } = options;
          const response = await server.send(message, findTool, { ...bounds, asker: collectionAsker(answers ?? {}) });
          return { response, durationMs: performance.now() - started };
        },
        listTools,
        grep,
        bail: values.bail === true,
        timeoutMs: limits.timeoutMs,
        onCall: (call) => ctx.out.progress(`${call.status.padEnd(7)} ${call.name} (${Math.round(call.durationMs)} ms)`),
      });
      ctx.out.result(
        format === "junit" ? collectionJunit(report, file) : format === "json" ? collectionJson(report, file) : collectionText(report),
      );
      return collectionExitCode(report);
    });
  },
};
