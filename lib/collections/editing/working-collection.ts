/**
 * The collection the playground's Tests panel edits: calls added from the editor, renamed, reordered, removed,
 * expectations changed. Every change returns a new collection (React state); the format and the runner are
 * lib/collections', shared with `toolscope test`, so what is written here runs the same in CI.
 */
import { COLLECTION_FORMAT, type Collection, type CollectionCall, type Expectation, type RunReport } from "../index.ts";
import { isEffectivelyDestructive } from "../../docs/annotations.ts";
import { isObject } from "../../json/guards.ts";
import type { Tool } from "../../mcp/contract.ts";
import { portableServer } from "../../playground/stores/saved-transfer.ts";

/**
 * A new, empty collection for `server`: an http(s) server is named in its environment (what `toolscope test` runs
 * against by default); a built-in or stdio server is not a URL a file could name. Header values never go in a file,
 * and neither do credentials in the URL (`user:pw@`, `?api_key=…`): the collection is exported and kept in the
 * browser as it is, so the URL goes through portableServer, the rule every exported file names servers by. A URL that
 * rule cannot read is not named at all.
 */
export function emptyCollection(server: string): Collection {
  const named = /^https?:\/\//i.test(server) ? portableUrl(server) : undefined;
  return { format: COLLECTION_FORMAT, name: "Untitled collection", ...(named ? { environment: { server: named } } : {}), calls: [] };
}

/** `server` as a file may name it, or undefined when it is not a URL the rule accepts. */
function portableUrl(server: string): string | undefined {
  try {
    return portableServer(server);
  } catch {
    return undefined;
  }
}

/** The tool a tools/call names, or the method: what a new call is named after. */
export function callLabel(request: Record<string, unknown>): string {
  const params = isObject(request.params) ? request.params : {};
  if (request.method === "tools/call" && typeof params.name === "string" && params.name) return params.name;
  return typeof request.method === "string" && request.method ? request.method : "call";
}

/** `base`, or `base 2`, `base 3`… — the first name no call has (names are unique in a collection). */
export function uniqueName(calls: readonly CollectionCall[], base: string): string {
  const taken = new Set(calls.map((c) => c.name));
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base} ${n}`)) return `${base} ${n}`;
}

/**
 * The request as a collection keeps it: without `jsonrpc` and `id`, which the runner adds (ids per run, so a call
 * moved or copied never clashes).
 */
export function storedRequest(message: Record<string, unknown>): Record<string, unknown> {
  const { jsonrpc: _jsonrpc, id: _id, ...rest } = message;
  return rest;
}

/** The collection with a call for `message` at the end (expectations: no JSON-RPC error, until the person says more). */
export function addCall(c: Collection, message: Record<string, unknown>, expect: Expectation[] = [{ kind: "no-error" }]): Collection {
  const request = storedRequest(message);
  const call: CollectionCall = { name: uniqueName(c.calls, callLabel(request)), request, expect };
  return { ...c, calls: [...c.calls, call] };
}

export function updateCall(c: Collection, index: number, change: (call: CollectionCall) => CollectionCall): Collection {
  return { ...c, calls: c.calls.map((call, i) => (i === index ? change(call) : call)) };
}

export function removeCall(c: Collection, index: number): Collection {
  return { ...c, calls: c.calls.filter((_, i) => i !== index) };
}

/** The call at `index` moved one place up (-1) or down (+1); unchanged at either end. */
export function moveCall(c: Collection, index: number, delta: -1 | 1): Collection {
  const to = index + delta;
  if (index < 0 || index >= c.calls.length || to < 0 || to >= c.calls.length) return c;
  const calls = [...c.calls];
  [calls[index], calls[to]] = [calls[to], calls[index]];
  return { ...c, calls };
}

/**
 * A call renamed; refused (with why) when the name is empty or another call has it: reports, `--grep` and JUnit name
 * calls by it, and captures say which call set a variable.
 */
export function renameCall(
  c: Collection,
  index: number,
  name: string,
): { ok: true; collection: Collection } | { ok: false; error: string } {
  const trimmed = name.trim();
  if (!trimmed) return { ok: false, error: "A call needs a name: reports and --grep name calls by it." };
  if (c.calls.some((call, i) => i !== index && call.name === trimmed))
    return { ok: false, error: `Another call is named “${trimmed}”: names are unique in a collection.` };
  return { ok: true, collection: updateCall(c, index, (call) => ({ ...call, name: trimmed })) };
}

/** The names of the calls of a run that did not pass (failed, could not run, or skipped): "Run failed" runs these. */
export function notPassed(report: RunReport | undefined): string[] {
  return report ? report.calls.filter((call) => call.status !== "passed").map((call) => call.name) : [];
}

/** Tools the calls call that are effectively destructive (by the server's annotations): asked about once per run. */
export function destructiveTools(calls: readonly CollectionCall[], tools: readonly Tool[]): Tool[] {
  const byName = new Map(tools.map((t) => [t.name, t]));
  const found = new Map<string, Tool>();
  for (const call of calls) {
    const params = isObject(call.request.params) ? call.request.params : {};
    if (call.request.method !== "tools/call" || typeof params.name !== "string") continue;
    const tool = byName.get(params.name);
    if (tool && isEffectivelyDestructive(tool)) found.set(tool.name, tool);
  }
  return [...found.values()];
}

/** An exact-name pattern for `runCollection`'s `grep`: the calls named, and no other. */
export function namesPattern(names: readonly string[]): RegExp {
  return new RegExp(`^(?:${names.map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|")})$`);
}
