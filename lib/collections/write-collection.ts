/**
 * Writing a collection file so that a diff reads well and the same collection always gives the same bytes: the
 * format's own members in a fixed order (format, name, description, environment, calls; in a call name, request,
 * expect, capture, answers, timeoutMs; in an expectation kind first), everything free-form inside them (a request's
 * params, a recorded answer, a schema, variables) with its keys sorted as lib/json/canonical.ts sorts them; two-space
 * indent and a final newline. Reading what was written and writing it again gives the same bytes.
 */
import { canonicalJson } from "../json/canonical.ts";
import { COLLECTION_FORMAT, type Collection, type CollectionCall, type Expectation } from "./format.ts";

/** A free-form value with its keys in canonical order (JSON.stringify keeps the insertion order). */
function sorted(value: unknown): unknown {
  return JSON.parse(canonicalJson(value));
}

/** `keys` of `source` first, in that order, then the rest sorted; members that are undefined are left out. */
function ordered(source: Record<string, unknown>, keys: readonly string[], inner: (key: string, value: unknown) => unknown) {
  const out: Record<string, unknown> = {};
  const rest = Object.keys(source)
    .filter((k) => !keys.includes(k))
    .sort();
  for (const key of [...keys, ...rest]) if (source[key] !== undefined) out[key] = inner(key, source[key]);
  return out;
}

function expectation(e: Expectation): unknown {
  return ordered(e as unknown as Record<string, unknown>, ["kind"], (_, v) => sorted(v));
}

function call(c: CollectionCall): unknown {
  return ordered(c as unknown as Record<string, unknown>, ["name", "request", "expect", "capture", "answers", "timeoutMs"], (key, v) =>
    key === "expect" ? (v as Expectation[]).map(expectation) : key === "request" ? requestOrder(v as Record<string, unknown>) : sorted(v),
  );
}

/** A request reads as JSON-RPC is written: jsonrpc, id, method, params. */
function requestOrder(request: Record<string, unknown>): unknown {
  return ordered(request, ["jsonrpc", "id", "method", "params"], (_, v) => sorted(v));
}

/** The file's text. */
export function writeCollection(collection: Collection): string {
  const doc = ordered(
    { ...collection, format: COLLECTION_FORMAT } as unknown as Record<string, unknown>,
    ["format", "name", "description", "environment", "calls"],
    (key, v) =>
      key === "calls"
        ? (v as CollectionCall[]).map(call)
        : key === "environment"
          ? ordered(v as Record<string, unknown>, ["server", "headers", "variables"], (_, inner) => sorted(inner))
          : sorted(v),
  );
  return `${JSON.stringify(doc, null, 2)}\n`;
}
