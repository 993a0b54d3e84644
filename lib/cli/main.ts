/**
 * `toolscope`: the command line's entry. Dispatches to a command and turns every failure into one line on stderr
 * and the exit code the table in exit-codes.ts gives it (every line written is masked with the run's secrets:
 * cli-io.ts).
 */
import { ProxyError } from "../upstream/policy.ts";
import { CliOutput, type CliStreams } from "./cli-io.ts";
import { COMMANDS, type Command } from "./commands.ts";
import { CliError, EXIT, EXIT_MEANINGS, type ExitCode } from "./exit-codes.ts";

/** The exit code for a failure of the client core, by its kind. */
export function exitCodeForProxyError(err: ProxyError): ExitCode {
  switch (err.kind) {
    case "upstream-unreachable":
    case "upstream-timeout":
    case "blocked-target":
    case "upstream-rate-limited":
    case "unavailable":
      return EXIT.unreachable;
    case "upstream-auth":
    case "oauth-flow":
      return EXIT.auth;
    case "upstream-protocol":
    case "stream-broken":
    case "too-large":
      return EXIT.protocol;
    case "bad-request":
      return EXIT.usage;
    default:
      return EXIT.internal;
  }
}

function help(version: string, commands: Record<string, Command>): string {
  const width = Math.max(...Object.keys(commands).map((c) => c.length));
  return `toolscope ${version}: MCP tools in a pipeline — snapshot, lint, diff, call and test a server's tools.

Usage: toolscope <command> [flags]

Commands:
${Object.entries(commands)
  .map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`)
  .join("\n")}

Run \`toolscope <command> --help\` for a command's flags.

Exit codes:
${EXIT_MEANINGS.map((e) => `  ${String(e.code).padStart(2)}  ${e.meaning}`).join("\n")}
`;
}

/**
 * Run `argv`. `commands` defaults to those of lib/cli; the entry (cli/src) adds `docs`, which renders the web docs'
 * React components and so lives outside lib/.
 */
export async function main(
  argv: readonly string[],
  streams: CliStreams,
  version: string,
  commands: Record<string, Command> = COMMANDS,
): Promise<ExitCode> {
  const out = new CliOutput(streams);
  const [name, ...args] = argv;
  if (name === undefined || name === "help" || name === "--help" || name === "-h") {
    out.result(help(version, commands));
    return EXIT.ok;
  }
  if (name === "--version" || name === "-v" || name === "version") {
    out.result(`${version}\n`);
    return EXIT.ok;
  }
  const command = Object.hasOwn(commands, name) ? commands[name] : undefined;
  if (!command) {
    out.error(`unknown command ${JSON.stringify(name)}.`, `Commands: ${Object.keys(commands).join(", ")}. See \`toolscope --help\`.`);
    return EXIT.usage;
  }
  if (args.includes("--help") || args.includes("-h")) {
    out.result(`${command.usage}\n`);
    return EXIT.ok;
  }
  try {
    return await command.run(args, { out, env: streams.env, version });
  } catch (err) {
    if (err instanceof CliError) {
      out.error(err.message, err.hint);
      return err.code;
    }
    if (err instanceof ProxyError) {
      // The core's hint for a refusal speaks of the browser's sign-in; a pipeline proves itself with flags.
      const hint =
        err.kind === "upstream-auth"
          ? "Give a token with --bearer-env VAR, or a client with --client-id and --client-secret-env VAR or --private-key-file F (the client credentials grant)."
          : err.hint;
      out.error(err.message, hint);
      return exitCodeForProxyError(err);
    }
    out.error(
      `toolscope failed: ${(err as Error)?.stack ?? String(err)}`,
      "This is a fault of toolscope itself; please report it with the command you ran.",
    );
    return EXIT.internal;
  }
}
