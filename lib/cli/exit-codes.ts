/**
 * The command line's exit codes: one table, kept stable so pipelines can gate on them (docs/cli.md prints it).
 * Numbers follow the ecosystem's habit: 0 success, 1 findings, 2 a usage error.
 */
export const EXIT = {
  /** The command did what it was asked and found nothing at or above the threshold. */
  ok: 0,
  /** Findings or changes at or above `--fail-on`, or a call whose result is an error (`isError`, a JSON-RPC error). */
  findings: 1,
  /** A bad flag, argument, file or URL: nothing was contacted. */
  usage: 2,
  /** The server could not be reached (DNS, refused, timeout, the process did not start). */
  unreachable: 3,
  /** The server refused the credentials (401/403, an OAuth failure). */
  auth: 4,
  /** The server answered, but not as MCP says (a broken stream, a malformed message, a limit exceeded). */
  protocol: 5,
  /** A fault of the command line itself. */
  internal: 70,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** What each code means, in the order of the table. */
export const EXIT_MEANINGS: readonly { code: ExitCode; name: keyof typeof EXIT; meaning: string }[] = [
  { code: EXIT.ok, name: "ok", meaning: "success: nothing at or above the threshold" },
  { code: EXIT.findings, name: "findings", meaning: "findings or changes at or above --fail-on; a call answered with an error" },
  { code: EXIT.usage, name: "usage", meaning: "a bad flag, argument, file or URL (nothing was contacted)" },
  { code: EXIT.unreachable, name: "unreachable", meaning: "the server could not be reached, or timed out" },
  { code: EXIT.auth, name: "auth", meaning: "the server refused the credentials" },
  { code: EXIT.protocol, name: "protocol", meaning: "the server's answer broke the protocol or a limit" },
  { code: EXIT.internal, name: "internal", meaning: "a fault of toolscope itself" },
];

/** A failure the command line reports in one line, with the exit code it ends with and what to change. */
export class CliError extends Error {
  constructor(
    readonly code: ExitCode,
    message: string,
    readonly hint?: string,
  ) {
    super(message);
  }
}

/** A bad flag, argument or file. */
export function usageError(message: string, hint?: string): CliError {
  return new CliError(EXIT.usage, message, hint);
}
