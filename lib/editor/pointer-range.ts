/**
 * JSON pointer → text range, so a diagnostic about `/params/arguments/status` lands on the exact
 * characters of that value in the editor. Pure: uses jsonc-parser's tree, no Monaco.
 */
import { parseTree, type Node as JsonNode } from "jsonc-parser";
import { parsePointer as parseJsonPointer } from "../json/pointer.ts";

export type { Node as JsonNode } from "jsonc-parser";

/** A character range in the document text: `offset` from the start, `length` characters. */
export interface TextRange {
  offset: number;
  length: number;
}

export interface PointerTarget {
  /** The node the pointer reaches, or the deepest existing ancestor when part of the path is absent. */
  node: JsonNode;
  /** True when the whole pointer resolved; false when `node` is only the nearest existing ancestor. */
  exact: boolean;
}

/** Split a JSON pointer into unescaped tokens (`~1` → `/`, `~0` → `~`, in that order). */
export function parsePointer(pointer: string): string[] {
  // Lenient: a pointer missing its leading "/" is read as if it had one.
  return parseJsonPointer(pointer) ?? parseJsonPointer(`/${pointer}`) ?? [];
}

/** The property node (`"key": value`) of `key` in an object node, if present (last one wins, like JSON.parse). */
export function propertyNode(object: JsonNode, key: string): JsonNode | undefined {
  if (object.type !== "object" || !object.children) return undefined;
  let found: JsonNode | undefined;
  for (const prop of object.children) {
    const k = prop.children?.[0];
    if (k && k.value === key) found = prop;
  }
  return found;
}

/** Walk `pointer` from `root`; stops at the deepest node that exists. */
export function resolvePointer(root: JsonNode, pointer: string): PointerTarget {
  let node = root;
  for (const token of parsePointer(pointer)) {
    let next: JsonNode | undefined;
    if (node.type === "object") {
      next = propertyNode(node, token)?.children?.[1];
    } else if (node.type === "array" && /^(0|[1-9]\d*)$/.test(token)) {
      next = node.children?.[Number(token)];
    }
    if (!next) return { node, exact: false };
    node = next;
  }
  return { node, exact: true };
}

/** The key node (`"status"`) when `valueNode` is the value of an object property. */
export function keyNodeOf(valueNode: JsonNode): JsonNode | undefined {
  const parent = valueNode.parent;
  if (parent?.type === "property" && parent.children?.[1] === valueNode) return parent.children[0];
  return undefined;
}

export type RangeMode =
  /** The value itself. */
  | "value"
  /** The property key (for "unexpected property" problems); falls back to the value at the root. */
  | "key"
  /** For a missing required property: the key of the object (e.g. `"arguments"`), or its opening brace. */
  | "container";

/** Range of a node for `mode`, see {@link RangeMode}. */
export function nodeRange(node: JsonNode, mode: RangeMode = "value"): TextRange {
  if (mode === "key" || mode === "container") {
    const key = keyNodeOf(node);
    if (key) return { offset: key.offset, length: key.length };
  }
  if (mode === "container" && (node.type === "object" || node.type === "array")) {
    // The root object (or an array element): its opening brace only, never the whole document.
    return { offset: node.offset, length: 1 };
  }
  return { offset: node.offset, length: node.length };
}

/**
 * Range of `pointer` in `text` (or in an already parsed `root`). When the path does not fully exist the
 * nearest existing ancestor is used in "container" mode (so a squiggle never covers a whole document).
 * Returns undefined only when the text has no JSON value at all.
 */
export function pointerRange(textOrRoot: string | JsonNode, pointer: string, mode: RangeMode = "value"): TextRange | undefined {
  const root = typeof textOrRoot === "string" ? parseTree(textOrRoot) : textOrRoot;
  if (!root) return undefined;
  const { node, exact } = resolvePointer(root, pointer);
  return nodeRange(node, exact ? mode : "container");
}
