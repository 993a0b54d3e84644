/**
 * "Expect this": from an answer the person just got, the expectations that answer passes, to start a saved call's
 * `expect` from instead of an empty list. Values that will differ on the next run (ids, timestamps, tokens) are
 * proposed as `present`, not `equals`, so the proposal still passes tomorrow; the same rule gives `unchanged` its
 * volatile pointers. Every proposal passes `evaluateExpectation` against the answer it came from (the tests check it
 * on real demo answers). Nothing that looks like a credential is copied from the answer (share-collection.ts's rule,
 * so a proposal never makes a collection a link refuses): such a value is proposed as `present`, such a line gets no
 * `text-contains`, and an `unchanged` records a marker in its place, at a volatile pointer. Pure: no React, no Node.
 */
import { isObject } from "../json/guards.ts";
import { appendPointer, parsePointer } from "../json/pointer.ts";
import type { Tool } from "../mcp/contract.ts";
import { looksLikeSecretValue } from "../mcp/secrets.ts";
import { validateAgainst } from "../schema/validate.ts";
import type { Expectation, Pointer } from "./format.ts";
import { holdsSecret } from "./share-collection.ts";
import { placeholders } from "./substitute.ts";

/** Most value expectations proposed for one answer: a handful reads well, a hundred buries the point. */
export const MAX_PROPOSED_VALUES = 8;
/** Strings longer than this are proposed as `present`: an equals on a paragraph breaks on every wording change. */
export const MAX_EQUALS_STRING = 200;
/** `text-contains` takes the first line of a plain-text answer, cut to this many characters. */
export const MAX_TEXT_CONTAINS = 80;
/** Deepest nesting walked, and most values visited, so a huge or deep answer costs a bounded amount. */
const MAX_DEPTH = 64;
const MAX_VISITS = 10_000;

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?)?$/i;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const LONG_HEX = /^(?:0x)?[0-9a-f]{16,}$/i;
/** Longer strings are text, not ids or tokens; the token test (which decodes the value) is not run on them. */
const MAX_TOKEN_LENGTH = 4096;
/**
 * Member names whose values a server mints anew: ids (`id`, `issue_id`, `userId`), times (`created_at`, `updatedAt`),
 * and, beyond those, cursors and tokens (`nextCursor`, `session_token`), which are opaque by definition.
 */
const VOLATILE_KEY = /^(?:id|ID|cursor|token)$|(?:_id|Id|ID|_at|At|_cursor|Cursor|_token|Token)$/;

/** True when a scalar at member `key` will likely differ on the next run. */
function isVolatile(key: string | number | undefined, value: unknown): boolean {
  if (typeof key === "string" && VOLATILE_KEY.test(key) && (typeof value === "string" || typeof value === "number")) return true;
  if (typeof value !== "string" || value.length > MAX_TOKEN_LENGTH) return false;
  // An opaque token: a known credential shape or a random-looking run of base64/hex (lib/mcp/secrets.ts's rule).
  return ISO_DATE_TIME.test(value) || UUID.test(value) || LONG_HEX.test(value) || looksLikeSecretValue(value);
}

const isScalar = (v: unknown): boolean => v === null || ["string", "number", "boolean"].includes(typeof v);

/** A string holding a JSON object or array, parsed; undefined otherwise (valueAt steps into such strings). */
function jsonInside(text: string): unknown {
  const start = text.trimStart()[0];
  if (start !== "{" && start !== "[") return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === "object" && parsed !== null ? parsed : undefined;
  } catch {
    return undefined;
  }
}

interface Leaf {
  pointer: Pointer;
  key: string | number | undefined;
  value: unknown;
}

/**
 * The scalar leaves of `value`, each container's own scalars before its nested containers (so the top level comes
 * first), depth first, stopping after `limit`. `intoText` also walks JSON held in strings, as valueAt reads it.
 */
function leaves(value: unknown, base: Pointer, limit: number, intoText: boolean): Leaf[] {
  const out: Leaf[] = [];
  let visits = 0;
  const visit = (node: unknown, pointer: Pointer, depth: number): void => {
    if (depth > MAX_DEPTH) return;
    const entries: [string | number, unknown][] = Array.isArray(node)
      ? node.map((v, i) => [i, v])
      : isObject(node)
        ? Object.entries(node)
        : [];
    const nested: [Pointer, unknown][] = [];
    for (const [key, child] of entries) {
      if (out.length >= limit || ++visits > MAX_VISITS) return;
      const at = appendPointer(pointer, key);
      const inside = intoText && typeof child === "string" ? jsonInside(child) : undefined;
      if (inside !== undefined) nested.push([at, inside]);
      else if (isScalar(child)) out.push({ pointer: at, key, value: child });
      else nested.push([at, child]);
    }
    for (const [at, child] of nested) {
      if (out.length >= limit) return;
      visit(child, at, depth + 1);
    }
  };
  visit(value, base, 0);
  return out;
}

/**
 * The pointers (from `base`) of the values in `value` that will likely differ on the next run: ids, timestamps,
 * UUIDs, tokens. JSON held in a string is walked too, as valueAt and `unchanged` read it (`/content/0/text/id`).
 */
export function volatilePointers(value: unknown, base: Pointer = ""): Pointer[] {
  return leaves(value, base, MAX_VISITS, true)
    .filter((l) => isVolatile(l.key, l.value))
    .map((l) => l.pointer);
}

/**
 * The first non-blank line of `text`, cut to MAX_TEXT_CONTAINS characters (whole code points) and before any `{{`;
 * "" when the line holds what looks like a credential ("Signed in with key sk-…"): even a cut one is part of a key.
 */
function firstLine(text: string): string {
  const line = text.split(/\r?\n/).find((l) => l.trim() !== "") ?? "";
  if (holdsSecret(line)) return "";
  // A {{placeholder}} in an expectation is filled from the run's variables: text before it is all that can be kept.
  const plain = placeholders(line).length ? line.slice(0, line.indexOf("{{")) : line;
  return Array.from(plain.trim()).slice(0, MAX_TEXT_CONTAINS).join("").trimEnd();
}

/** What an answer's data is and where it is: structuredContent, or a text block holding a JSON object. */
function answerData(result: Record<string, unknown>): { data: unknown; base: Pointer } | { text: string } | undefined {
  if (result.structuredContent !== undefined) return { data: result.structuredContent, base: "/result/structuredContent" };
  const content = Array.isArray(result.content) ? result.content : [];
  const index = content.findIndex((b) => isObject(b) && typeof b.text === "string");
  if (index < 0) return undefined;
  const text = (content[index] as { text: string }).text;
  const parsed = jsonInside(text);
  if (isObject(parsed)) return { data: parsed, base: `/result/content/${index}/text` };
  return { text };
}

/**
 * Expectations that `response` (the answer to `request`) passes. A JSON-RPC error gives `error` with its code;
 * otherwise `no-error`, `is-error` (tools/call), `output-schema` when `tool` declares one and the answer is valid
 * against it, then up to MAX_PROPOSED_VALUES values of the answer's data (volatile ones and long strings as
 * `present`), or for plain text a `text-contains` of its first line. No response: nothing to propose.
 */
export function proposeExpectations(
  request: Record<string, unknown>,
  response: Record<string, unknown> | null,
  tool?: Tool,
): Expectation[] {
  if (!response) return [];
  if (isObject(response.error)) {
    const code = response.error.code;
    return [Number.isInteger(code) ? { kind: "error", code: code as number } : { kind: "error" }];
  }
  const out: Expectation[] = [{ kind: "no-error" }];
  const result = isObject(response.result) ? response.result : undefined;
  if (!result) return out;
  const params = isObject(request.params) ? request.params : {};
  const toolsCall = request.method === "tools/call";
  if (toolsCall || "isError" in result) out.push({ kind: "is-error", value: result.isError === true });
  // output-schema looks the tool up by the request's name, so it only passes when `tool` is the one called.
  if (
    toolsCall &&
    tool?.outputSchema !== undefined &&
    params.name === tool.name &&
    result.structuredContent !== undefined &&
    validateAgainst(tool.outputSchema, result.structuredContent).ok
  )
    out.push({ kind: "output-schema" });
  const found = answerData(result);
  if (!found) return out;
  if ("text" in found) {
    const text = firstLine(found.text);
    if (text !== "") out.push({ kind: "text-contains", text });
    return out;
  }
  for (const leaf of leaves(found.data, found.base, MAX_PROPOSED_VALUES, false)) {
    // A {{…}} in a pointer or value would be filled from variables when the expectation runs.
    if (placeholders(leaf.pointer).length) continue;
    // A member name that looks like a credential would be copied into the pointer itself: nothing to propose there.
    if (parsePointer(leaf.pointer)?.some(holdsSecret)) continue;
    const long = typeof leaf.value === "string" && leaf.value.length > MAX_EQUALS_STRING;
    const templated = typeof leaf.value === "string" && placeholders(leaf.value).length > 0;
    // isVolatile already takes a whole token for one; this also catches one inside a phrase ("Bearer …", "key sk-…").
    const secret = typeof leaf.value === "string" && holdsSecret(leaf.value);
    out.push(
      isVolatile(leaf.key, leaf.value) || long || templated || secret
        ? { kind: "present", pointer: leaf.pointer }
        : { kind: "equals", pointer: leaf.pointer, value: leaf.value },
    );
  }
  return out;
}

/** What an `unchanged` records instead of a value that looks like a credential (its pointer is volatile). */
export const NOT_RECORDED = "(not recorded: it looks like a credential)";

/**
 * `value` without what looks like a credential: each such string becomes {@link NOT_RECORDED}, and so does an object
 * with such a member name (the name is the secret); with the pointers (from "") of what was replaced. JSON held in a
 * string is read, and written back when something in it was replaced, as valueAt and `unchanged` step into it.
 */
function withoutSecrets(value: unknown): { value: unknown; pointers: Pointer[] } {
  const pointers: Pointer[] = [];
  let visits = 0;
  const visit = (node: unknown, pointer: Pointer, depth: number): unknown => {
    // Past the bounds the value is kept as it is: share-collection's scan still refuses a link that carries it.
    if (++visits > MAX_VISITS || depth > MAX_DEPTH) return node;
    if (typeof node === "string") {
      const inside = jsonInside(node);
      if (inside === undefined) {
        if (!holdsSecret(node)) return node;
        pointers.push(pointer);
        return NOT_RECORDED;
      }
      const before = pointers.length;
      const kept = visit(inside, pointer, depth + 1);
      // Only what is compared matters: a volatile pointer into the text makes `unchanged` compare it as data.
      return pointers.length === before ? node : JSON.stringify(kept, null, node.includes("\n") ? 2 : undefined);
    }
    if (Array.isArray(node)) return node.map((item, i) => visit(item, appendPointer(pointer, i), depth + 1));
    if (!isObject(node)) return node;
    if (Object.keys(node).some(holdsSecret)) {
      pointers.push(pointer);
      return NOT_RECORDED;
    }
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, visit(v, appendPointer(pointer, k), depth + 1)]));
  };
  return { value: visit(value, "", 0), pointers };
}

/**
 * An `unchanged` of the whole answer: its result (or, for a JSON-RPC error, its error at `/error`) as recorded, with
 * `volatile` pointers (relative to it) the person chose, or else the ones {@link volatilePointers} guesses; the
 * member is left out when there are none. What looks like a credential is not recorded ({@link NOT_RECORDED}) and
 * its pointer is always volatile, so the expectation still passes. Undefined when the response has neither a result
 * nor an error.
 */
export function proposeUnchanged(
  response: Record<string, unknown>,
  volatile?: readonly Pointer[],
): Extract<Expectation, { kind: "unchanged" }> | undefined {
  const onError = response.result === undefined && response.error !== undefined;
  const recorded = onError ? response.error : response.result;
  if (recorded === undefined) return undefined;
  const kept = withoutSecrets(recorded);
  // The file's schema wants volatile pointers unique.
  const pointers = [...new Set([...(volatile ?? volatilePointers(recorded)), ...kept.pointers])];
  return {
    kind: "unchanged",
    ...(onError ? { pointer: "/error" } : {}),
    recorded: kept.value,
    ...(pointers.length ? { volatile: pointers } : {}),
  };
}
