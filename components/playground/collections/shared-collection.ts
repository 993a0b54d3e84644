/**
 * A collection opened from a link (`/playground?server=…#c1.…`), handed from the page shell, which reads the address,
 * to the Tests panel of the tab it opens: taken once, so a reload or another tab does not import it again. The tab
 * may be open already (same server): the playground subscribes and opens its Tests panel when one arrives.
 */
import type { Collection } from "@/lib/collections";

let offered: { server: string; collection: Collection } | null = null;
const listeners = new Set<() => void>();

export function offerSharedCollection(server: string, collection: Collection): void {
  offered = { server, collection };
  for (const listener of listeners) listener();
}

/** The collection offered for `server`, once. */
export function takeSharedCollection(server: string): Collection | undefined {
  if (offered?.server !== server) return undefined;
  const { collection } = offered;
  offered = null;
  for (const listener of listeners) listener();
  return collection;
}

/** Whether a collection waits for `server`. */
export function hasSharedCollection(server: string): boolean {
  return offered?.server === server;
}

export function subscribeSharedCollection(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
