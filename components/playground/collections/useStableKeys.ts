"use client";

import { useState } from "react";

let counter = 0;
const fresh = () => `k${++counter}`;

interface Keyed<T> {
  items: readonly T[];
  keys: string[];
}

/**
 * The keys of `items` given the keys of the list before: an item that is the same object keeps its key; an item
 * replaced in place (an edit makes a new object at the same index, the old one gone) keeps the key of the one it
 * replaced; anything else is new.
 */
export function reconcileKeys<T extends object>(prev: Keyed<T>, items: readonly T[]): string[] {
  const byItem = new Map<T, string>(prev.items.map((item, i) => [item, prev.keys[i]]));
  const kept = new Set(items.filter((item) => byItem.has(item)));
  const used = new Set<string>();
  return items.map((item, i) => {
    const found = byItem.get(item);
    const replaced = prev.items[i];
    const key =
      found !== undefined && !used.has(found)
        ? found
        : replaced !== undefined && !kept.has(replaced) && !used.has(prev.keys[i])
          ? prev.keys[i]
          : fresh();
    used.add(key);
    return key;
  });
}

/**
 * React keys for a list edited immutably (a collection's calls, a call's expectations), so each row keeps its own state
 * (an open card, a half-typed field) when rows are removed or moved, and through its own edits. Index keys would hand
 * a removed row's draft to the row after it.
 */
export function useStableKeys<T extends object>(items: readonly T[]): string[] {
  const [keyed, setKeyed] = useState<Keyed<T>>(() => ({ items, keys: items.map(fresh) }));
  if (keyed.items === items) return keyed.keys;
  // Derived state, adjusted while rendering (React's documented pattern): the next render reads it back.
  const keys = reconcileKeys(keyed, items);
  setKeyed({ items, keys });
  return keys;
}
