import "server-only";
import { createHash } from "node:crypto";
import { canonicalJson } from "@/lib/json/canonical";
import type { SnapshotDefinitions } from "./snapshot-types.ts";

/*
 * Snapshot ids, apart from the store: the shared rules (./snapshot-rules.ts) check and derive ids, and the store
 * builds on those rules, so the ids living in the store would make an import cycle.
 */

/** Characters of the base64url sha256 kept as the id (132 bits). */
export const SNAPSHOT_ID_CHARS = 22;
const ID_PATTERN = new RegExp(`^[A-Za-z0-9_-]{${SNAPSHOT_ID_CHARS}}$`);

/** True when `id` has the shape of a snapshot id (checked before any lookup). */
export function isSnapshotId(id: string): boolean {
  return ID_PATTERN.test(id);
}

/**
 * The content address of some definitions: sha256 of their canonical JSON, base64url, first 22 chars.
 * `fetchedAt` is left out so sharing the same definitions again (a later fetch) gives the same link.
 */
export function snapshotId(definitions: SnapshotDefinitions): string {
  const hashed = { ...definitions, list: { ...definitions.list, fetchedAt: undefined } };
  return createHash("sha256").update(canonicalJson(hashed)).digest("base64url").slice(0, SNAPSHOT_ID_CHARS);
}
