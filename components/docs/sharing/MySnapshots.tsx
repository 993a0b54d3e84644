"use client";

import Link from "next/link";
import { useSyncExternalStore } from "react";
import { listMySnapshots, MY_SNAPSHOTS_KEY, type MySnapshot } from "@/lib/playground/stores/my-snapshots";

const NONE: MySnapshot[] = [];
let cached: { raw: string | null; list: MySnapshot[] } = { raw: null, list: NONE };

/** The list as a stable snapshot for useSyncExternalStore (a new array only when the stored text changed). */
function read(): MySnapshot[] {
  const raw = globalThis.localStorage?.getItem(MY_SNAPSHOTS_KEY) ?? null;
  if (raw !== cached.raw) cached = { raw, list: listMySnapshots(globalThis.localStorage) };
  return cached.list;
}

/**
 * The snapshots shared from this browser, for the diff page (issue 26: it took only ids typed by hand): a datalist
 * the id fields offer, and a list with "compare with live" and "as Before" links. At the end of the page, so its
 * arrival after load moves nothing.
 */
export function MySnapshots({ current }: { current?: string }) {
  const list = useSyncExternalStore(
    () => () => {},
    read,
    () => NONE,
  );
  return (
    <>
      <datalist id="my-snapshots">
        {list.map((s) => (
          <option key={s.id} value={s.id}>
            {s.server}
          </option>
        ))}
      </datalist>
      {list.length > 0 && (
        <section aria-label="Snapshots shared from this browser" data-testid="my-snapshots" className="text-sm">
          <h2 className="mb-1 text-xs font-medium uppercase tracking-wide text-zinc-500">Shared from this browser</h2>
          <ul className="divide-y divide-zinc-200 rounded-md border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800">
            {list.map((s) => (
              <li key={s.id} className="flex flex-wrap items-baseline gap-x-3 gap-y-1 px-3 py-1.5">
                <code className="font-mono text-xs">{s.id}</code>
                <span className="min-w-0 flex-1 truncate text-zinc-600 dark:text-zinc-400" title={s.server}>
                  {s.server} · {new Date(s.at).toLocaleString("en-GB", { dateStyle: "medium", timeStyle: "short" })}
                </span>
                <Link className="text-accent-700 underline dark:text-accent-100" href={`/diff?a=${encodeURIComponent(s.id)}&b=live`}>
                  Compare with live
                </Link>
                {current && current !== s.id && (
                  <Link
                    className="text-accent-700 underline dark:text-accent-100"
                    href={`/diff?a=${encodeURIComponent(s.id)}&b=${encodeURIComponent(current)}`}
                  >
                    Compare with {current}
                  </Link>
                )}
              </li>
            ))}
          </ul>
        </section>
      )}
    </>
  );
}
