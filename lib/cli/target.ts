/**
 * What a command is pointed at, named the way people have their servers: an http(s) URL (either era, or HTTP+SSE),
 * a stdio command line (`--stdio "node server.js"`), an entry of an `mcpServers` config file (`--config F --server
 * N`), or a snapshot file. A stdio command line becomes a one-entry config file in a private temporary folder, so the
 * client core starts it the one way it starts every stdio server (from a config file, never from a request).
 */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { usageError } from "./exit-codes.ts";
import { parseSnapshot, type SnapshotFile } from "./snapshot-file.ts";

export type Target =
  | { kind: "live"; url: string; stdioConfigPath: string; label: string; cleanup: () => void }
  | { kind: "snapshot"; file: string; text: string; snapshot: SnapshotFile; label: string };

/** The largest snapshot file read, in bytes. */
export const MAX_SNAPSHOT_FILE_BYTES = 64 * 1024 * 1024;

const NOTHING = () => undefined;

/** Split a command line the way a POSIX shell would for plain words and quotes (no variables, globs or pipes). */
export function splitCommand(line: string): string[] {
  const words: string[] = [];
  let word = "";
  let quote: '"' | "'" | null = null;
  let started = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quote) {
      if (ch === quote) quote = null;
      else if (ch === "\\" && quote === '"' && i + 1 < line.length && /["\\$`]/.test(line[i + 1])) word += line[++i];
      else word += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      started = true;
    } else if (ch === "\\" && i + 1 < line.length) {
      word += line[++i];
      started = true;
    } else if (/\s/.test(ch)) {
      if (started || word) words.push(word);
      word = "";
      started = false;
    } else {
      word += ch;
      started = true;
    }
  }
  if (quote)
    throw usageError(
      `--stdio ${JSON.stringify(line)} has an unclosed ${quote} quote.`,
      "Close the quote, or quote the whole command once.",
    );
  if (started || word) words.push(word);
  return words;
}

/** A stdio command line as a target: a one-entry config file only this user can read, removed by `cleanup`. */
export function stdioCommandTarget(line: string): Target {
  const [command, ...args] = splitCommand(line);
  if (!command) throw usageError('--stdio needs a command, e.g. --stdio "node server.js".');
  const dir = mkdtempSync(join(tmpdir(), "toolscope-cli-"));
  const file = join(dir, "servers.json");
  writeFileSync(file, JSON.stringify({ mcpServers: { stdio: { command, args, env: {}, cwd: process.cwd() } } }), { mode: 0o600 });
  return {
    kind: "live",
    url: "stdio:stdio",
    stdioConfigPath: file,
    label: `stdio: ${command}`,
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** An entry of an `mcpServers` config file. */
export function configEntryTarget(configFile: string, server: string): Target {
  const file = resolve(configFile);
  try {
    statSync(file);
  } catch {
    throw usageError(`--config ${configFile}: no such file.`, "Name an mcpServers JSON file, e.g. the one your MCP host uses.");
  }
  if (!/^[\w.-]{1,64}$/.test(server))
    throw usageError(`--server ${JSON.stringify(server)} is not an entry name.`, "Use the name of an entry under mcpServers.");
  return { kind: "live", url: `stdio:${server}`, stdioConfigPath: file, label: `${server} (${configFile})`, cleanup: NOTHING };
}

/** A URL or a snapshot file, from a positional argument. */
export function positionalTarget(arg: string): Target {
  if (/^https?:\/\//i.test(arg)) {
    let url: URL;
    try {
      url = new URL(arg);
    } catch {
      throw usageError(`${JSON.stringify(arg)} is not a valid URL.`, "Write the server's endpoint in full, e.g. https://example.com/mcp.");
    }
    return {
      kind: "live",
      url: url.toString(),
      stdioConfigPath: join(tmpdir(), "toolscope-no-stdio.json"),
      label: `${url.origin}${url.pathname}`,
      cleanup: NOTHING,
    };
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(arg))
    throw usageError(
      `${JSON.stringify(arg)}: only http and https URLs are servers.`,
      'For a local server use --stdio "command", or --config file --server name.',
    );
  return snapshotTarget(arg);
}

/** A snapshot file, read and checked. */
export function snapshotTarget(path: string): Target {
  let size: number;
  try {
    size = statSync(path).size;
  } catch {
    throw usageError(`${path}: no such file, and not an http(s) URL.`, "Name a snapshot written by `toolscope snapshot`, or a server URL.");
  }
  if (size > MAX_SNAPSHOT_FILE_BYTES)
    throw usageError(`${path} is ${size} bytes; the largest snapshot read is ${MAX_SNAPSHOT_FILE_BYTES} bytes.`);
  const text = readFileSync(path, "utf8");
  const parsed = parseSnapshot(text, path);
  if (!parsed.ok) throw usageError(parsed.message);
  return { kind: "snapshot", file: path, text, snapshot: parsed.snapshot, label: path };
}
