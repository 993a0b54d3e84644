/**
 * The snapshot a command line writes beside the code: a server's definitions as canonical JSON (keys sorted, lists
 * ordered by name or URI, two-space indent, a final newline), so the same server gives the same bytes and a commit
 * shows only what changed. Nothing of the run goes in (no time, no session, no headers). Reading also accepts the
 * web app's snapshot export (`/s/<id>/export.json`), so a snapshot shared in the browser can be linted and diffed.
 */
import type { CacheScope, ExcludedTool, ServerSummary, Tool } from "../mcp/contract.ts";
import { canonicalJson } from "../json/canonical.ts";
import { isObject } from "../json/guards.ts";

export const SNAPSHOT_FORMAT = "toolscope-snapshot/1";

export interface SnapshotFile {
  format: typeof SNAPSHOT_FORMAT;
  /** The server as it was named, without credentials or query (an http(s) URL, or `stdio:<name>`). */
  source: string;
  /** What the server said of itself (its info, era, protocol version, capabilities, instructions). */
  server: Omit<ServerSummary, "displayUrl" | "supportedVersions"> & { supportedVersions?: string[] };
  list: { tools: Tool[]; excluded: ExcludedTool[]; ttlMs?: number; cacheScope?: CacheScope; warnings?: string[] };
  prompts: Record<string, unknown>[];
  resources: Record<string, unknown>[];
  resourceTemplates: Record<string, unknown>[];
}

const byKey = (key: string) => (a: Record<string, unknown>, b: Record<string, unknown>) =>
  String(a[key] ?? "").localeCompare(String(b[key] ?? ""), "en");

/** The snapshot with its lists in their canonical order. */
export function normaliseSnapshot(snapshot: SnapshotFile): SnapshotFile {
  return {
    ...snapshot,
    list: {
      ...snapshot.list,
      tools: [...snapshot.list.tools].sort((a, b) => a.name.localeCompare(b.name, "en")),
      excluded: [...snapshot.list.excluded].sort((a, b) => a.tool.name.localeCompare(b.tool.name, "en")),
    },
    prompts: [...snapshot.prompts].sort(byKey("name")),
    resources: [...snapshot.resources].sort(byKey("uri")),
    resourceTemplates: [...snapshot.resourceTemplates].sort(byKey("uriTemplate")),
  };
}

/** The file's bytes: canonical JSON of the normalised snapshot. */
export function snapshotText(snapshot: SnapshotFile): string {
  return `${canonicalJson(normaliseSnapshot(snapshot), 2)}\n`;
}

/** The server's name for `source`: an http(s) URL loses its credentials, query and fragment. */
export function snapshotSource(url: string): string {
  if (!/^https?:/i.test(url)) return url;
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}`;
  } catch {
    return url;
  }
}

/** Why a file is not a snapshot, or the snapshot. `name` is the file's name for messages. */
export function parseSnapshot(text: string, name: string): { ok: true; snapshot: SnapshotFile } | { ok: false; message: string } {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    return { ok: false, message: `${name} is not JSON (${(err as Error).message}).` };
  }
  if (!isObject(data)) return { ok: false, message: `${name} is not a snapshot: it is not a JSON object.` };
  const list = data.list;
  if (!isObject(list) || !Array.isArray(list.tools))
    return { ok: false, message: `${name} is not a snapshot: it has no list.tools array (write one with \`toolscope snapshot\`).` };
  if (data.format !== undefined && data.format !== SNAPSHOT_FORMAT)
    return {
      ok: false,
      message: `${name} is a snapshot of format ${JSON.stringify(data.format)}; this toolscope reads ${SNAPSHOT_FORMAT}.`,
    };
  const bad = list.tools.findIndex((t) => !isObject(t) || typeof t.name !== "string" || !isObject(t.inputSchema));
  if (bad >= 0) return { ok: false, message: `${name}: list.tools[${bad}] is not a tool (it needs a name and an inputSchema object).` };
  const server = isObject(data.server) ? data.server : {};
  const array = (v: unknown) => (Array.isArray(v) ? v.filter(isObject) : []);
  return {
    ok: true,
    snapshot: {
      format: SNAPSHOT_FORMAT,
      source: typeof data.source === "string" ? data.source : name,
      server: {
        ...(server as SnapshotFile["server"]),
        era: server.era === "legacy" ? "legacy" : "modern",
        protocolVersion: typeof server.protocolVersion === "string" ? server.protocolVersion : "unknown",
        capabilities: isObject(server.capabilities) ? server.capabilities : {},
      },
      list: {
        tools: list.tools as Tool[],
        excluded: array(list.excluded) as unknown as ExcludedTool[],
        ...(typeof list.ttlMs === "number" ? { ttlMs: list.ttlMs } : {}),
        ...(typeof list.cacheScope === "string" ? { cacheScope: list.cacheScope as CacheScope } : {}),
      },
      prompts: array(data.prompts),
      resources: array(data.resources),
      resourceTemplates: array(data.resourceTemplates),
    },
  };
}
