/**
 * The JSON pointers of an answer, for the pointer fields of the expectation editor to complete from: every member and
 * item, stepping into a string that holds a JSON object or array as lib/collections' pointers do
 * (`/result/content/0/text/id`). Bounded by count and depth: an answer may be huge, the list is for a person to pick.
 */
import { appendPointer } from "../../json/pointer.ts";
import { isObject } from "../../json/guards.ts";

export const MAX_POINTER_SUGGESTIONS = 300;
const MAX_DEPTH = 12;
/** Strings longer than this are not parsed for JSON inside (a pointer list is not worth parsing megabytes). */
const MAX_INNER_JSON_CHARS = 256 * 1024;

function inner(text: string): unknown {
  const t = text.trimStart();
  if (text.length > MAX_INNER_JSON_CHARS || !(t.startsWith("{") || t.startsWith("["))) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Pointers into `root` in document order, starting at `base` (not itself listed), at most `limit` of them. */
export function responsePointers(root: unknown, base = "", limit = MAX_POINTER_SUGGESTIONS): string[] {
  const out: string[] = [];
  const walk = (node: unknown, at: string, depth: number) => {
    if (out.length >= limit || depth > MAX_DEPTH) return;
    const value = typeof node === "string" ? inner(node) : node;
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length && out.length < limit; i++) {
        const next = appendPointer(at, String(i));
        out.push(next);
        walk(value[i], next, depth + 1);
      }
    } else if (isObject(value)) {
      for (const [key, child] of Object.entries(value)) {
        if (out.length >= limit) break;
        const next = appendPointer(at, key);
        out.push(next);
        walk(child, next, depth + 1);
      }
    }
  };
  walk(root, base, 0);
  return out;
}
