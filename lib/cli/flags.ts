/**
 * Flags shared by the commands, parsed with Node's parseArgs (strict: an unknown flag is a usage error naming it),
 * and the request headers they name. A header value is best given through the environment (`--header-env`,
 * `--bearer-env`): a value on the command line is visible to other users of the machine and kept in shell history.
 */
import { parseArgs, type ParseArgsConfig } from "node:util";
import { secretValues, type SecretValues } from "../mcp/mask-text.ts";
import type { UserHeaders } from "../mcp/contract.ts";
import { usageError } from "./exit-codes.ts";
import { DEFAULT_LIMITS, type LiveLimits } from "./live-server.ts";
import { configEntryTarget, positionalTarget, stdioCommandTarget, type Target } from "./target.ts";

type Options = NonNullable<ParseArgsConfig["options"]>;

/** Flags every command that reaches a server takes. */
export const SERVER_FLAGS: Options = {
  stdio: { type: "string" },
  config: { type: "string" },
  server: { type: "string" },
  header: { type: "string", multiple: true, short: "H" },
  "header-env": { type: "string", multiple: true },
  "bearer-env": { type: "string" },
  "client-id": { type: "string" },
  "client-secret-env": { type: "string" },
  "private-key-file": { type: "string" },
  "private-key-env": { type: "string" },
  "signing-alg": { type: "string" },
  scope: { type: "string" },
  "auth-issuer": { type: "string" },
  timeout: { type: "string" },
  quiet: { type: "boolean", short: "q" },
  help: { type: "boolean", short: "h" },
};

export type Values = Record<string, string | boolean | string[] | undefined>;

/** Parse `args` against `options`; a bad flag is a usage error that names it and the command's help. */
export function parse(command: string, args: string[], options: Options): { values: Values; positionals: string[] } {
  try {
    const { values, positionals } = parseArgs({ args, options, allowPositionals: true, strict: true });
    return { values: values as Values, positionals };
  } catch (err) {
    throw usageError(
      `${command}: ${(err as Error).message.replace(/\. To specify a positional argument.*$/s, ".")}`,
      `See \`toolscope ${command} --help\`.`,
    );
  }
}

const str = (v: Values[string]): string | undefined => (typeof v === "string" ? v : undefined);
const list = (v: Values[string]): string[] => (Array.isArray(v) ? v : typeof v === "string" ? [v] : []);

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** The request headers the flags name, and their values as secrets (masked in every output). */
export function headersFrom(
  values: Values,
  env: Readonly<Record<string, string | undefined>>,
): { headers: UserHeaders; secrets: SecretValues } {
  const headers: UserHeaders = {};
  const set = (name: string, value: string, flag: string) => {
    if (!HEADER_NAME.test(name)) throw usageError(`${flag}: ${JSON.stringify(name)} is not a header name.`);
    if (/[\r\n]/.test(value)) throw usageError(`${flag}: the value of ${name} has a line break.`);
    headers[name] = value;
  };
  for (const h of list(values.header)) {
    const colon = h.indexOf(":");
    if (colon <= 0)
      throw usageError(
        `--header needs "Name: value" (got one without a colon).`,
        'Write --header "X-Api-Key: …", or better --header-env X-Api-Key=ENV_VAR.',
      );
    set(h.slice(0, colon).trim(), h.slice(colon + 1).trim(), "--header");
  }
  for (const h of list(values["header-env"])) {
    const eq = h.indexOf("=");
    if (eq <= 0) throw usageError(`--header-env needs Name=ENV_VAR (got ${JSON.stringify(h)}).`);
    const variable = h.slice(eq + 1);
    const value = env[variable];
    if (value === undefined || value === "")
      throw usageError(`--header-env ${h.slice(0, eq)}: the environment variable ${variable} is not set.`);
    set(h.slice(0, eq).trim(), value, "--header-env");
  }
  const bearer = str(values["bearer-env"]);
  if (bearer !== undefined) {
    const token = env[bearer];
    if (!token)
      throw usageError(
        `--bearer-env: the environment variable ${bearer} is not set.`,
        "Export the token into it first (in CI, from the secret store).",
      );
    set("Authorization", `Bearer ${token}`, "--bearer-env");
  }
  return { headers, secrets: secretValues(Object.values(headers).flatMap((v) => [v, v.replace(/^Bearer\s+/i, "")])) };
}

/** The per-step timeout and limits. */
export function limitsFrom(values: Values): LiveLimits {
  const raw = str(values.timeout);
  if (raw === undefined) return DEFAULT_LIMITS;
  const ms = Number(raw);
  if (!Number.isInteger(ms) || ms < 100 || ms > 3_600_000)
    throw usageError(
      `--timeout ${JSON.stringify(raw)}: give milliseconds, from 100 to 3600000.`,
      "e.g. --timeout 10000 for 10 s per network step.",
    );
  return { ...DEFAULT_LIMITS, timeoutMs: ms };
}

/** The flags' server (--stdio, or --config with --server), if any. */
export function flagTarget(values: Values): Target | undefined {
  const stdio = str(values.stdio);
  const config = str(values.config);
  const server = str(values.server);
  if (stdio !== undefined && (config !== undefined || server !== undefined))
    throw usageError("--stdio and --config/--server name two servers; give one.");
  if (stdio !== undefined) return stdioCommandTarget(stdio);
  if (config !== undefined || server !== undefined) {
    if (config === undefined || server === undefined) throw usageError("--config and --server go together: the file and the entry in it.");
    return configEntryTarget(config, server);
  }
  return undefined;
}

/** The one server or snapshot a command works on: the flags', else one positional. */
export function singleTarget(command: string, values: Values, positionals: string[]): Target {
  const fromFlags = flagTarget(values);
  if (fromFlags && positionals.length === 0) return fromFlags;
  if (!fromFlags && positionals.length === 1) return positionalTarget(positionals[0]);
  if (fromFlags?.kind === "live") fromFlags.cleanup();
  throw usageError(
    `${command} works on one server or snapshot: ${positionals.length + (fromFlags ? 1 : 0)} given.`,
    `Give a URL, a snapshot file, --stdio "command", or --config file --server name. See \`toolscope ${command} --help\`.`,
  );
}

export { str, list };
