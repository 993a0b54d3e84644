import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import { STDIO_SERVER_NAME } from "@/lib/mcp/contract-guards";
import type { StdioServersResponse } from "@/lib/mcp/contract";
import type { UpstreamSettings } from "../settings.ts";
import { ProxyError } from "../errors/proxy-error.ts";
import { isObject } from "@/lib/json/guards";

/**
 * The local stdio servers file, in the `mcpServers` shape desktop MCP hosts use:
 * `{ "mcpServers": { "<name>": { "command": "node", "args": [...], "env": {...}, "cwd": "..." } } }`.
 * It is the ONLY source of command lines: requests name a server (`stdio:<name>`), never a command.
 */
export interface StdioServerSpec {
  name: string;
  command: string;
  args: string[];
  env: Record<string, string>;
  /** Absolute; a relative `cwd` in the file is resolved against the file's directory. */
  cwd?: string;
}

export interface StdioServersFile {
  servers: Map<string, StdioServerSpec>;
  /** Entries left out on purpose (a remote `url` server, `"disabled": true`, another `type`). */
  skipped: string[];
}

/** A config file that cannot be used; the message names the file and the entry. */
export class StdioConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "StdioConfigError";
  }
}

/** Parse the text of a stdio servers file. Strict: any malformed entry rejects the file with a message naming it. */
export function parseStdioConfig(text: string, filePath: string): StdioServersFile {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new StdioConfigError(`${filePath} is not valid JSON: ${(err as Error).message}`);
  }
  if (!isObject(json))
    throw new StdioConfigError(`${filePath} must hold a JSON object like {"mcpServers": {"<name>": {"command": "…", "args": […]}}}.`);
  if (!isObject(json.mcpServers))
    throw new StdioConfigError(`${filePath}: "mcpServers" must be an object of server name to {"command", "args", "env", "cwd"}.`);
  const servers = new Map<string, StdioServerSpec>();
  const skipped: string[] = [];
  const dir = path.dirname(path.resolve(filePath));
  for (const [name, entry] of Object.entries(json.mcpServers)) {
    const at = `${filePath}: mcpServers.${name}`;
    if (!STDIO_SERVER_NAME.test(name))
      throw new StdioConfigError(
        `${at}: the name must be 1-64 letters, digits, ".", "_" or "-" (starting with a letter or digit), so it can be written stdio:<name>.`,
      );
    if (!isObject(entry)) throw new StdioConfigError(`${at} must be an object with "command" (and optional "args", "env", "cwd").`);
    if (entry.disabled === true) {
      skipped.push(`${name}: disabled`);
      continue;
    }
    if ((entry.type !== undefined && entry.type !== "stdio") || (entry.command === undefined && entry.url !== undefined)) {
      skipped.push(
        `${name}: not a stdio server (${entry.type !== undefined ? `type ${JSON.stringify(entry.type)}` : "it has a url"}); connect to remote servers by URL instead`,
      );
      continue;
    }
    if (typeof entry.command !== "string" || entry.command.trim() === "")
      throw new StdioConfigError(`${at}.command must be a non-empty string (the executable, e.g. "node" or "npx").`);
    if (/[\0\r\n]/.test(entry.command)) throw new StdioConfigError(`${at}.command contains a line break or NUL.`);
    const args = entry.args ?? [];
    if (!Array.isArray(args)) throw new StdioConfigError(`${at}.args must be an array of strings.`);
    args.forEach((a, i) => {
      if (typeof a !== "string") throw new StdioConfigError(`${at}.args[${i}] must be a string, not ${a === null ? "null" : typeof a}.`);
      if (a.includes("\0")) throw new StdioConfigError(`${at}.args[${i}] contains a NUL character.`);
    });
    const env = entry.env ?? {};
    if (!isObject(env)) throw new StdioConfigError(`${at}.env must be an object of variable name to string value.`);
    for (const [k, v] of Object.entries(env)) {
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(k))
        throw new StdioConfigError(`${at}.env: ${JSON.stringify(k)} is not a valid environment variable name.`);
      if (typeof v !== "string") throw new StdioConfigError(`${at}.env.${k} must be a string.`);
    }
    if (entry.cwd !== undefined && (typeof entry.cwd !== "string" || entry.cwd.trim() === ""))
      throw new StdioConfigError(`${at}.cwd must be a non-empty string (a directory).`);
    servers.set(name, {
      name,
      command: entry.command,
      args: args as string[],
      env: env as Record<string, string>,
      ...(typeof entry.cwd === "string" ? { cwd: path.resolve(dir, entry.cwd) } : {}),
    });
  }
  return { servers, skipped };
}

let cache: { path: string; mtimeMs: number; size: number; file: StdioServersFile } | undefined;

/**
 * Read the stdio servers file (re-read when it changes, so edits apply without a restart).
 * A missing file is an empty list; an unreadable or invalid one throws StdioConfigError.
 */
export async function loadStdioServers(filePath: string): Promise<StdioServersFile> {
  let info;
  try {
    info = await stat(filePath);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return { servers: new Map(), skipped: [] };
    throw new StdioConfigError(`${filePath} cannot be read: ${(err as Error).message}`);
  }
  if (cache && cache.path === filePath && cache.mtimeMs === info.mtimeMs && cache.size === info.size) return cache.file;
  if (info.size > 1_000_000) throw new StdioConfigError(`${filePath} is larger than 1 MB; is it the right file?`);
  const text = await readFile(filePath, "utf8").catch((err: Error) => {
    throw new StdioConfigError(`${filePath} cannot be read: ${err.message}`);
  });
  const file = parseStdioConfig(text, filePath);
  cache = { path: filePath, mtimeMs: info.mtimeMs, size: info.size, file };
  return file;
}

const HOSTED_MESSAGE = "stdio servers are only available when Toolscope runs locally.";

/** Refuse any stdio request in hosted mode (403): no process is ever started there. */
export function assertStdioAllowed(cfg: Pick<UpstreamSettings, "mode">): void {
  if (cfg.mode !== "local")
    throw new ProxyError(
      "blocked-target",
      HOSTED_MESSAGE,
      "Run Toolscope on your own machine (npm start, TOOLSCOPE_MODE=local) to launch stdio servers from a config file.",
    );
}

/** The configured server a `stdio:<name>` URL names, or a clear error. */
export async function configuredServer(cfg: Pick<UpstreamSettings, "mode" | "stdioConfigPath">, url: string): Promise<StdioServerSpec> {
  assertStdioAllowed(cfg);
  const name = url.slice("stdio:".length);
  let file;
  try {
    file = await loadStdioServers(cfg.stdioConfigPath);
  } catch (err) {
    throw new ProxyError(
      "bad-request",
      (err as Error).message,
      "Fix the stdio servers file (TOOLSCOPE_STDIO_CONFIG); see toolscope.servers.example.json.",
    );
  }
  const spec = file.servers.get(name);
  if (!spec) {
    const names = [...file.servers.keys()];
    throw new ProxyError(
      "bad-request",
      `No stdio server named "${name}" in ${cfg.stdioConfigPath}.`,
      names.length
        ? `Configured: ${names.map((n) => `stdio:${n}`).join(", ")}.`
        : 'Add it under "mcpServers" in that file (TOOLSCOPE_STDIO_CONFIG); see toolscope.servers.example.json.',
    );
  }
  return spec;
}

/** GET /api/stdio: what the file offers, without env values or full command lines. */
export async function listStdioServers(cfg: Pick<UpstreamSettings, "mode" | "stdioConfigPath">): Promise<StdioServersResponse> {
  if (cfg.mode !== "local") return { enabled: false, servers: [], problem: HOSTED_MESSAGE };
  try {
    const file = await loadStdioServers(cfg.stdioConfigPath);
    const servers = [...file.servers.values()].map((s) => ({ name: s.name, command: path.basename(s.command), argCount: s.args.length }));
    const problem =
      servers.length === 0 ? `No stdio servers configured: create ${cfg.stdioConfigPath} (see toolscope.servers.example.json).` : undefined;
    return { enabled: true, servers, configPath: cfg.stdioConfigPath, ...(problem ? { problem } : {}) };
  } catch (err) {
    return { enabled: true, servers: [], configPath: cfg.stdioConfigPath, problem: (err as Error).message };
  }
}
