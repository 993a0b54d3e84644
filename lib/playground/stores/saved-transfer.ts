import { shareableServerUrl } from "../../share/share-codec.ts";
import {
  byteLength,
  checkName,
  findByName,
  MAX_SAVED_NAME_CHARS,
  MAX_SAVED_NOTE_CHARS,
  MAX_SAVED_REQUEST_BYTES,
  nameKey,
  type SavedEra,
  type SavedRequest,
} from "./saved-store.ts";
import { isObject } from "../../json/guards.ts";

/**
 * Saved requests as a file: export writes a versioned JSON document; import reads one as untrusted input (sizes
 * first, then the shape, entry by entry with the path of each problem), keeps only the known fields, and merges it
 * into the existing set. Headers are never part of a saved request; an imported `headers` field is dropped and said so.
 */

export const SAVED_EXPORT_KIND = "saved-requests";
export const SAVED_EXPORT_VERSION = 1;
/** Largest import file read. */
export const MAX_IMPORT_FILE_BYTES = 5_000_000;
/** Most entries one import file may hold. */
export const MAX_IMPORT_ENTRIES = 1000;
const MAX_ID_CHARS = 100;
const MAX_SERVER_CHARS = 2048;

export interface SavedExportDocument {
  toolscope: typeof SAVED_EXPORT_KIND;
  version: typeof SAVED_EXPORT_VERSION;
  exportedAt: string;
  requests: ExportedRequest[];
}

/** A saved request in a file: times as ISO 8601 strings. */
interface ExportedRequest {
  id: string;
  name: string;
  server: string;
  era?: string;
  request: string;
  createdAt: string;
  updatedAt: string;
  note?: string;
}

/**
 * A server key safe to write to a file and to accept from one: http(s) URLs lose credentials (user:password,
 * token-like query parameters, fragment) exactly as in share links; `builtin:` and `stdio:` names pass.
 */
export function portableServer(server: string): string {
  if (/^stdio:[A-Za-z0-9._-]+$/.test(server)) return server;
  return shareableServerUrl(server);
}

/** The export document (pretty JSON) for some saved requests, by server then name. Only the known fields are written. */
export function exportSaved(requests: readonly SavedRequest[], now: Date): string {
  const sorted = [...requests].sort(
    (a, b) => a.server.localeCompare(b.server, "en") || a.name.localeCompare(b.name, "en", { sensitivity: "base" }),
  );
  const doc: SavedExportDocument = {
    toolscope: SAVED_EXPORT_KIND,
    version: SAVED_EXPORT_VERSION,
    exportedAt: now.toISOString(),
    requests: sorted.map((r) => ({
      id: r.id,
      name: r.name,
      server: portableServer(r.server),
      ...(r.era ? { era: r.era } : {}),
      request: r.request,
      createdAt: new Date(r.createdAt).toISOString(),
      updatedAt: new Date(r.updatedAt).toISOString(),
      ...(r.note ? { note: r.note } : {}),
    })),
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}

/** A file name for an export: the whole set, or one server's group. */
export function exportFileName(now: Date, server?: string): string {
  const day = now.toISOString().slice(0, 10);
  if (!server) return `toolscope-saved-requests-${day}.json`;
  const slug = server
    .replace(/^https?:\/\//, "")
    .replace(/[^A-Za-z0-9]+/g, "-")
    .replace(/^-|-$/g, "")
    .slice(0, 60);
  return `toolscope-saved-${slug || "server"}-${day}.json`;
}

/** The whole file cannot be imported (nothing was changed). */
export class SavedImportError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SavedImportError";
  }
}

export interface ParsedImport {
  requests: SavedRequest[];
  /** Entries left out, each with the path of what is wrong: "requests[3].name must be a non-empty string". */
  invalid: string[];
  /** How many entries carried a `headers` field (dropped). */
  droppedHeaders: number;
}

function time(v: unknown, path: string, fallback: number): number {
  if (v === undefined) return fallback;
  const t = typeof v === "string" ? Date.parse(v) : NaN;
  if (!Number.isFinite(t)) throw new Error(`${path} must be an ISO 8601 date string`);
  return t;
}

/** One entry, validated into a typed value, or an Error whose message names the bad field. */
function readEntry(v: unknown, path: string, now: number, newId: () => string): SavedRequest {
  if (!isObject(v)) throw new Error(`${path} must be an object`);
  const id = v.id === undefined ? newId() : v.id;
  if (typeof id !== "string" || !id || id.length > MAX_ID_CHARS)
    throw new Error(`${path}.id must be a string of 1 to ${MAX_ID_CHARS} characters`);
  if (typeof v.name !== "string" || !v.name.trim()) throw new Error(`${path}.name must be a non-empty string`);
  const name = checkName(v.name);
  if (!name.ok) throw new Error(`${path}.name must be at most ${MAX_SAVED_NAME_CHARS} characters`);
  if (typeof v.server !== "string" || !v.server || v.server.length > MAX_SERVER_CHARS)
    throw new Error(`${path}.server must be a server URL, builtin: or stdio: name`);
  let server: string;
  try {
    server = portableServer(v.server);
  } catch {
    throw new Error(`${path}.server must be an http(s) URL, builtin:<id> or stdio:<name>, not ${JSON.stringify(v.server.slice(0, 80))}`);
  }
  if (v.era !== undefined && v.era !== "modern" && v.era !== "legacy") throw new Error(`${path}.era must be "modern" or "legacy"`);
  if (typeof v.request !== "string" || !v.request.trim()) throw new Error(`${path}.request must be a non-empty string`);
  if (byteLength(v.request) > MAX_SAVED_REQUEST_BYTES)
    throw new Error(`${path}.request is larger than ${MAX_SAVED_REQUEST_BYTES / 1024} KB`);
  if (v.note !== undefined && (typeof v.note !== "string" || v.note.length > MAX_SAVED_NOTE_CHARS))
    throw new Error(`${path}.note must be a string of at most ${MAX_SAVED_NOTE_CHARS} characters`);
  const createdAt = time(v.createdAt, `${path}.createdAt`, now);
  const updatedAt = time(v.updatedAt, `${path}.updatedAt`, createdAt);
  const note = typeof v.note === "string" ? v.note.trim() : "";
  const era = v.era as SavedEra | undefined;
  return { id, name: name.name, server, ...(era ? { era } : {}), request: v.request, createdAt, updatedAt, ...(note ? { note } : {}) };
}

/**
 * Read an import file. Whole-file problems (too big, not JSON, not a saved-requests document, an unknown version,
 * too many entries) throw {@link SavedImportError}; a bad entry is left out and listed in `invalid`.
 */
export function parseSavedImport(text: string, opts: { now: number; newId: () => string }): ParsedImport {
  const bytes = byteLength(text);
  if (bytes > MAX_IMPORT_FILE_BYTES)
    throw new SavedImportError(
      `The file is ${(bytes / 1_000_000).toFixed(1)} MB; an import file may be at most ${MAX_IMPORT_FILE_BYTES / 1_000_000} MB.`,
    );
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new SavedImportError(`The file is not JSON: ${(err as Error).message}`);
  }
  if (!isObject(doc) || doc.toolscope !== SAVED_EXPORT_KIND)
    throw new SavedImportError(`This is not a Toolscope saved-requests file (it should have "toolscope": "${SAVED_EXPORT_KIND}").`);
  if (doc.version !== SAVED_EXPORT_VERSION)
    throw new SavedImportError(
      `The file has format version ${JSON.stringify(doc.version)}; this Toolscope reads version ${SAVED_EXPORT_VERSION} only.`,
    );
  if (!Array.isArray(doc.requests)) throw new SavedImportError("requests must be an array.");
  if (doc.requests.length > MAX_IMPORT_ENTRIES)
    throw new SavedImportError(`The file holds ${doc.requests.length} requests; one import takes at most ${MAX_IMPORT_ENTRIES}.`);
  const out: ParsedImport = { requests: [], invalid: [], droppedHeaders: 0 };
  doc.requests.forEach((v, i) => {
    const path = `requests[${i}]`;
    if (isObject(v) && "headers" in v) out.droppedHeaders++;
    try {
      const entry = readEntry(v, path, opts.now, opts.newId);
      const twin = out.requests.find((r) => r.id === entry.id) ?? findByName(out.requests, entry.server, entry.name);
      if (twin) throw new Error(`${path} repeats "${twin.name}" (same id, or same server and name) earlier in the file`);
      out.requests.push(entry);
    } catch (err) {
      out.invalid.push((err as Error).message);
    }
  });
  return out;
}

/** What to do when an imported request matches an existing one (same id, or same server and name). */
export type ConflictPolicy = "replace" | "skip";

export interface MergePlan {
  put: SavedRequest[];
  remove: string[];
  imported: number;
  replaced: number;
  /** Matched an existing request that was kept ("skip"). */
  kept: number;
}

/**
 * Merge imported requests into the existing ones. A match by id or by server+name is a conflict: "replace" puts the
 * imported one in place of the existing one (taking its id, so no twin is left behind), "skip" keeps the existing.
 */
export function planMerge(existing: readonly SavedRequest[], incoming: readonly SavedRequest[], policy: ConflictPolicy): MergePlan {
  const plan: MergePlan = { put: [], remove: [], imported: 0, replaced: 0, kept: 0 };
  const current = new Map(existing.map((r) => [r.id, r]));
  for (const r of incoming) {
    const byId = current.get(r.id);
    const byName = [...current.values()].find((e) => e.server === r.server && nameKey(e.name) === nameKey(r.name));
    if (!byId && !byName) {
      plan.put.push(r);
      current.set(r.id, r);
      plan.imported++;
      continue;
    }
    if (policy === "skip") {
      plan.kept++;
      continue;
    }
    // Replace: the imported request takes the place of what it matched; a second match (the id of one, the name of another) is replaced too.
    const target = byName ?? byId!;
    const replacement = { ...r, id: target.id };
    for (const old of [byId, byName]) {
      if (old && old.id !== target.id) {
        plan.remove.push(old.id);
        current.delete(old.id);
      }
    }
    plan.put = plan.put.filter((p) => p.id !== target.id);
    plan.put.push(replacement);
    current.set(target.id, replacement);
    plan.replaced++;
  }
  return plan;
}

/** One line for people: "Imported 12, replaced 2, kept 1 existing, skipped 1 invalid: requests[3].name must be a non-empty string." */
export function importReport(parsed: ParsedImport, plan: MergePlan): string {
  const parts = [`Imported ${plan.imported}`];
  if (plan.replaced) parts.push(`replaced ${plan.replaced}`);
  if (plan.kept) parts.push(`kept ${plan.kept} existing`);
  let line = parts.join(", ");
  if (parsed.invalid.length) {
    const shown = parsed.invalid.slice(0, 3).join("; ");
    line += `, skipped ${parsed.invalid.length} invalid: ${shown}${parsed.invalid.length > 3 ? `; and ${parsed.invalid.length - 3} more` : ""}`;
  }
  line += ".";
  if (parsed.droppedHeaders)
    line += ` Dropped the headers field of ${parsed.droppedHeaders} ${parsed.droppedHeaders === 1 ? "entry" : "entries"}: header values are never imported.`;
  return line;
}
