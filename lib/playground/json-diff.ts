/**
 * Compare two JSON values: a structural list of changes by JSON pointer, and side-by-side rows of their
 * pretty-printed text (keys sorted, so key order never shows up as a difference) from a Myers line diff.
 */
import { isObject } from "../json/guards.ts";
import { escapeToken } from "../json/pointer.ts";
import { canonicalJson } from "../json/canonical.ts";

export type JsonChange =
  | { kind: "added"; pointer: string; after: unknown }
  | { kind: "removed"; pointer: string; before: unknown }
  | { kind: "changed"; pointer: string; before: unknown; after: unknown };

/** Every difference between `a` and `b`, deepest first within each branch, in document order. */
export function diffJson(a: unknown, b: unknown, pointer = ""): JsonChange[] {
  if (Array.isArray(a) && Array.isArray(b)) {
    const out: JsonChange[] = [];
    const n = Math.max(a.length, b.length);
    for (let i = 0; i < n; i++) {
      const p = `${pointer}/${i}`;
      if (i >= a.length) out.push({ kind: "added", pointer: p, after: b[i] });
      else if (i >= b.length) out.push({ kind: "removed", pointer: p, before: a[i] });
      else out.push(...diffJson(a[i], b[i], p));
    }
    return out;
  }
  if (isObject(a) && isObject(b)) {
    const out: JsonChange[] = [];
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
    for (const k of keys) {
      const p = `${pointer}/${escapeToken(k)}`;
      if (!Object.hasOwn(b, k)) out.push({ kind: "removed", pointer: p, before: a[k] });
      else if (!Object.hasOwn(a, k)) out.push({ kind: "added", pointer: p, after: b[k] });
      else out.push(...diffJson(a[k], b[k], p));
    }
    return out;
  }
  return Object.is(a, b) || (a === null && b === null) ? [] : [{ kind: "changed", pointer, before: a, after: b }];
}

/** Pretty canonical JSON (keys sorted, lib/json/canonical.ts); an absent value reads "undefined" rather than "null". */
export function stableStringify(value: unknown): string {
  return value === undefined ? "undefined" : canonicalJson(value, 2);
}

export interface DiffRow {
  kind: "same" | "removed" | "added" | "changed";
  /** 1-based line numbers and text on each side; absent where the side has no line. */
  left?: { n: number; text: string };
  right?: { n: number; text: string };
}

/** Edit distance beyond which the line diff gives up and shows the texts as wholly changed. */
export const MAX_DIFF_EDITS = 1000;

type Op = { kind: "same" | "removed" | "added"; line: string };

/** Myers' O(ND) line diff. */
function myers(a: string[], b: string[]): Op[] | undefined {
  const n = a.length;
  const m = b.length;
  const max = Math.min(n + m, MAX_DIFF_EDITS);
  const offset = max + 1;
  let v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= max; d++) {
    trace.push(v.slice());
    const next = v.slice();
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1] < v[offset + k + 1]) ? v[offset + k + 1] : v[offset + k - 1] + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      next[offset + k] = x;
      if (x >= n && y >= m) {
        trace.push(next);
        return backtrack(trace, a, b, offset);
      }
    }
    v = next;
  }
  return undefined;
}

function backtrack(trace: Int32Array[], a: string[], b: string[], offset: number): Op[] {
  const ops: Op[] = [];
  let x = a.length;
  let y = b.length;
  for (let d = trace.length - 2; d >= 0; d--) {
    const v = trace[d];
    const k = x - y;
    const prevK = k === -d || (k !== d && v[offset + k - 1] < v[offset + k + 1]) ? k + 1 : k - 1;
    const prevX = d === 0 ? 0 : v[offset + prevK];
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      ops.push({ kind: "same", line: a[--x] });
      y--;
    }
    if (d === 0) break;
    if (x === prevX) ops.push({ kind: "added", line: b[--y] });
    else ops.push({ kind: "removed", line: a[--x] });
  }
  while (x > 0 && y > 0) {
    ops.push({ kind: "same", line: a[--x] });
    y--;
  }
  return ops.reverse();
}

/** Side-by-side rows for two values: unchanged lines paired, a removed run beside an added run as "changed". */
export function sideBySide(a: unknown, b: unknown): DiffRow[] {
  const left = stableStringify(a).split("\n");
  const right = stableStringify(b).split("\n");
  const ops = myers(left, right) ?? [
    ...left.map((line): Op => ({ kind: "removed", line })),
    ...right.map((line): Op => ({ kind: "added", line })),
  ];
  const rows: DiffRow[] = [];
  let ln = 0;
  let rn = 0;
  for (let i = 0; i < ops.length;) {
    if (ops[i].kind === "same") {
      rows.push({ kind: "same", left: { n: ++ln, text: ops[i].line }, right: { n: ++rn, text: ops[i].line } });
      i++;
      continue;
    }
    const removed: string[] = [];
    const added: string[] = [];
    while (i < ops.length && ops[i].kind !== "same") {
      (ops[i].kind === "removed" ? removed : added).push(ops[i].line);
      i++;
    }
    for (let j = 0; j < Math.max(removed.length, added.length); j++) {
      const l = j < removed.length ? { n: ++ln, text: removed[j] } : undefined;
      const r = j < added.length ? { n: ++rn, text: added[j] } : undefined;
      rows.push({ kind: l && r ? "changed" : l ? "removed" : "added", ...(l ? { left: l } : {}), ...(r ? { right: r } : {}) });
    }
  }
  return rows;
}
