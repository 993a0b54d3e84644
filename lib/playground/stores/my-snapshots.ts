/**
 * The snapshots shared from this browser (ids, the server they describe, when), kept in localStorage so the diff page
 * can offer them (issue 26: it took only ids typed by hand). No secrets: a snapshot id is a public link already.
 */
export interface MySnapshot {
  id: string;
  server: string;
  at: string;
}

/** The localStorage key of the list (MySnapshots reads it to notice a change). */
export const MY_SNAPSHOTS_KEY = "toolscope.snapshots";
/** The newest this many are kept. */
export const MAX_MY_SNAPSHOTS = 50;

function valid(v: unknown): v is MySnapshot {
  const o = v as Partial<MySnapshot> | null;
  return typeof o?.id === "string" && typeof o.server === "string" && typeof o.at === "string";
}

/** The remembered snapshots, newest first (an unreadable store reads as none). */
export function listMySnapshots(storage: Pick<Storage, "getItem"> | undefined): MySnapshot[] {
  try {
    const parsed = JSON.parse(storage?.getItem(MY_SNAPSHOTS_KEY) ?? "[]") as unknown;
    return Array.isArray(parsed) ? parsed.filter(valid) : [];
  } catch {
    return [];
  }
}

/** Remember a snapshot just shared (a repeat moves to the front); a full or refused store is not an error. */
export function rememberMySnapshot(storage: Pick<Storage, "getItem" | "setItem"> | undefined, entry: MySnapshot): void {
  const list = [entry, ...listMySnapshots(storage).filter((s) => s.id !== entry.id)].slice(0, MAX_MY_SNAPSHOTS);
  try {
    storage?.setItem(MY_SNAPSHOTS_KEY, JSON.stringify(list));
  } catch {
    // Private mode or a full store: the snapshot exists all the same; only this list misses it.
  }
}
