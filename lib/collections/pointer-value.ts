/**
 * Reading a JSON pointer out of an answer, for expectations and captures. One rule beyond RFC 6901: when the pointer
 * goes on past a string that holds JSON, it goes on inside that JSON. Many tools answer with their JSON as a text block
 * (`/result/content/0/text/id` is the `id` of that JSON), and without this a collection could not use those answers.
 */
import { parsePointer } from "../json/pointer.ts";
import { isObject } from "../json/guards.ts";
import { previewJson } from "../json/preview.ts";

export type Lookup = { found: true; value: unknown } | { found: false };

const ARRAY_INDEX = /^(0|[1-9]\d*)$/;

/** What a volatile array item is replaced with before comparing. */
const VOLATILE_MARK = "(volatile)";

/** The value at `pointer` in `root`. */
export function valueAt(root: unknown, pointer: string): Lookup {
  const tokens = parsePointer(pointer);
  if (!tokens) return { found: false };
  let node = root;
  for (const token of tokens) {
    if (typeof node === "string") {
      try {
        node = JSON.parse(node);
      } catch {
        return { found: false };
      }
    }
    if (Array.isArray(node)) {
      if (!ARRAY_INDEX.test(token) || Number(token) >= node.length) return { found: false };
      node = node[Number(token)];
    } else if (isObject(node)) {
      if (!Object.hasOwn(node, token)) return { found: false };
      node = node[token];
    } else return { found: false };
  }
  return { found: true, value: node };
}

/**
 * `value` without what is at `pointer` (a copy; unchanged when nothing is there): an object's member is dropped, an
 * array's item replaced by a marker so the items after it keep their indices (several volatile items of one array).
 */
export function withoutPointer(value: unknown, pointer: string): unknown {
  const tokens = parsePointer(pointer);
  if (!tokens || tokens.length === 0) return undefined;
  const strip = (node: unknown, rest: string[]): unknown => {
    const [head, ...tail] = rest;
    if (typeof node === "string") {
      // The same step into JSON text as valueAt: the text is read, stripped, and compared as data from then on.
      try {
        const parsed: unknown = JSON.parse(node);
        if (typeof parsed === "object" && parsed !== null) return strip(parsed, rest);
      } catch {
        return node;
      }
      return node;
    }
    if (Array.isArray(node)) {
      if (!ARRAY_INDEX.test(head) || Number(head) >= node.length) return node;
      const i = Number(head);
      return node.map((item, j) => (j !== i ? item : tail.length === 0 ? VOLATILE_MARK : strip(item, tail)));
    }
    if (isObject(node) && Object.hasOwn(node, head)) {
      const copy = { ...node };
      if (tail.length === 0) delete copy[head];
      else copy[head] = strip(node[head], tail);
      return copy;
    }
    return node;
  };
  return strip(value, tokens);
}

/** A value as a short line for a message: JSON, cut at `max` characters. */
export function preview(value: unknown, max = 120): string {
  // An absent value reads as "nothing" in a message; the rest is lib/json's preview, shared with the docs.
  return value === undefined ? "nothing" : previewJson(value, max);
}
