/**
 * What every command is made of: its shape (summary, usage, run), the context it runs in, and the parsing of the
 * flags all commands share (quiet, headers, credentials, limits). Apart from commands.ts so that a command in a file
 * of its own (test-command.ts) uses it without importing the command table.
 */
import type { CliOutput } from "./cli-io.ts";
import { credentialSecrets, credentialsFrom } from "./client-credentials.ts";
import { usageError, type ExitCode } from "./exit-codes.ts";
import { headersFrom, limitsFrom, parse, SERVER_FLAGS } from "./flags.ts";
import type { Access } from "./load-target.ts";

export interface CommandContext {
  out: CliOutput;
  env: Readonly<Record<string, string | undefined>>;
  version: string;
}

export interface Command {
  summary: string;
  usage: string;
  run(args: string[], ctx: CommandContext): Promise<ExitCode>;
}

/** One of `allowed`, or a usage error naming the flag and the choices. */
export function choice<T extends string>(flag: string, value: string | undefined, allowed: readonly T[], fallback: T): T {
  if (value === undefined) return fallback;
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw usageError(`--${flag} ${JSON.stringify(value)}: choose one of ${allowed.join(", ")}.`);
}

/** Parse, apply the common flags (quiet, secrets), and hand over the rest. */
export function prepare(name: string, args: string[], ctx: CommandContext, options: Parameters<typeof parse>[2]) {
  const { values, positionals } = parse(name, args, { ...SERVER_FLAGS, ...options });
  ctx.out.quiet = values.quiet === true;
  const { headers, secrets } = headersFrom(values, ctx.env);
  ctx.out.addSecrets(secrets);
  const credentials = credentialsFrom(values, ctx.env);
  if (credentials) ctx.out.addSecrets(credentialSecrets(credentials));
  const access: Access = { headers, ...(credentials ? { credentials } : {}) };
  return { values, positionals, access, limits: limitsFrom(values) };
}
