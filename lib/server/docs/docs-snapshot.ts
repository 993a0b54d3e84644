import "server-only";
import type { ServerSummary, ToolsResponse, UserHeaders } from "@/lib/mcp/contract";
import { config } from "../platform/config.ts";
import { classifyError, ProxyError } from "@/lib/upstream/policy";
import { normaliseServerUrl } from "@/lib/upstream";
import { processSingleton } from "@/lib/runtime/process-singleton";
import { connect, disconnect, tools } from "../api/proxy-service.ts";
import { toolListGeneration } from "../tool-lists/tool-list-generation.ts";
import { log } from "../../log/log.ts";
import { ExchangeFailure } from "@/lib/upstream";
import { LastGoodDocs, type StaleInfo } from "./last-good-docs.ts";
import { budgetLimits, withUpstreamBudget } from "@/lib/upstream/policy";
import { maskJson, maskText, secretValues } from "@/lib/mcp/mask-text";
import { requestSecrets, withRequestSecrets } from "@/lib/upstream/policy";

export interface DocsSnapshot {
  server: ServerSummary;
  list: ToolsResponse;
  /** Present when the server could not be reached and this is the last copy that loaded. */
  stale?: StaleInfo;
}

/** How long a rendered docs snapshot is reused at most, whatever the server's ttlMs (docs should be near-live). */
export const DOCS_SNAPSHOT_MAX_AGE_MS = 30_000;
const MAX_SNAPSHOTS = 200;

/** The snapshots of this process (pages and routes share them), with the tool-list generation each was taken at. */
function state() {
  return processSingleton("docs-snapshots", () => ({
    snapshots: new Map<string, { value: Promise<DocsSnapshot>; expires: number; generation: number }>(),
    lastGood: new LastGoodDocs<DocsSnapshot>(() => config().docsStaleMaxMs),
  }));
}

/**
 * `fresh`: past the proxy's tool-list cache (the list as the server has it now). With `headers` (a signed-in Share),
 * their values are masked in the errors made meanwhile and in the definitions returned, which are stored for anyone
 * with the link: a server that echoes a header into a description must not publish it.
 */
async function load(url: string, origin: string, fresh = false, headers: UserHeaders = {}): Promise<DocsSnapshot> {
  const secrets = secretValues(Object.values(headers));
  // A docs page is one request: its connect and every page of its list share one upstream budget.
  const snap = await withRequestSecrets(secrets, () =>
    withUpstreamBudget(budgetLimits(config()), () => loadNow(url, origin, fresh, headers)),
  );
  return maskJson(snap, secrets);
}

async function loadNow(url: string, origin: string, fresh: boolean, headers: UserHeaders): Promise<DocsSnapshot> {
  const ctx = { config: config(), origin, signal: AbortSignal.timeout(config().requestTimeoutMs * 3) };
  try {
    const { server, connection } = await connect({ url, era: "auto", headers }, ctx);
    try {
      const list = await tools({ connection, headers, ...(fresh ? { fresh } : {}) }, ctx);
      return { server, list };
    } finally {
      // A docs view holds nothing afterwards: a legacy session is ended, a stdio process stopped (modern: a no-op).
      const released = disconnect({ connection, headers }, ctx).catch((err: unknown) =>
        log.debug("docs load could not release its connection", { reason: maskText((err as Error).message, requestSecrets()) }),
      );
      // A stdio process may take seconds to exit once its stdin is closed (server-everything keeps waiting on the
      // roots request it sends 350 ms after initialize, until the SDK's close sends SIGTERM 2 s later): the page does
      // not wait for that. The registry has forgotten the process already, and the SDK kills it within 4 s.
      if (!url.startsWith("stdio:")) await released;
    }
  } catch (err) {
    throw classifyError(
      err instanceof ExchangeFailure ? err.cause : err,
      url,
      ctx.config.requestTimeoutMs,
      err instanceof ExchangeFailure ? err.exchanges : undefined,
    );
  }
}

/**
 * The public docs of a server (no user credentials: docs pages are shareable links).
 * Reused for a short while, bounded by the list's own ttlMs, so a busy docs page does not hammer the server.
 */
export async function docsSnapshot(url: string, origin: string): Promise<DocsSnapshot> {
  const { snapshots, lastGood } = state();
  const now = Date.now();
  const generation = toolListGeneration(url);
  const hit = snapshots.get(url);
  // The list changed since this snapshot was taken (list_changed): neither it nor the last good copy describes it.
  if (hit && hit.generation !== generation) invalidateDocsSnapshot(url);
  else if (hit && hit.expires > now) return hit.value;
  const value = load(url, origin);
  if (snapshots.size >= MAX_SNAPSHOTS) snapshots.delete(snapshots.keys().next().value as string);
  snapshots.set(url, { value, expires: now + 1_000, generation });
  try {
    const snap = await value;
    // Unless it was invalidated meanwhile (list_changed): then the next page load fetches again.
    if (snapshots.get(url)?.value === value) {
      snapshots.set(url, { value, expires: now + Math.min(DOCS_SNAPSHOT_MAX_AGE_MS, Math.max(0, snap.list.ttlMs ?? 0)), generation });
      lastGood.remember(url, snap);
    }
    return snap;
  } catch (err) {
    if (snapshots.get(url)?.value === value) snapshots.delete(url);
    const failure = err instanceof ProxyError ? err : classifyError(err, url, config().requestTimeoutMs);
    const standIn = lastGood.recall(url, failure);
    if (standIn) return { ...standIn.value, stale: standIn.stale };
    throw failure;
  }
}

/**
 * The docs of a server as it lists its tools right now, past every cache: for Share and "Compare with live", which
 * must not present a list fetched minutes ago as the current one (the list's `fetchedAt` says when it was fetched).
 * No stale copy stands in when the server is down: the failure is the answer. A list that differs from the one last
 * seen drops every cached view of the server (see fetchToolList), so docs pages follow on their next render.
 * `headers`: a signed-in Share of a protected server sends its credentials for this one fetch (the proxy's caches
 * key lists by them); only the definitions are stored.
 */
export function freshDocsSnapshot(url: string, origin: string, headers: UserHeaders = {}): Promise<DocsSnapshot> {
  return load(url, origin, true, headers);
}

/** Forget the docs snapshot of a server (its tool list changed), so the next render loads it again. */
export function invalidateDocsSnapshot(url: string): void {
  const { snapshots, lastGood } = state();
  const key = normaliseServerUrl(url);
  for (const cached of [...snapshots.keys()]) if (normaliseServerUrl(cached) === key) snapshots.delete(cached);
  lastGood.forget((cached) => normaliseServerUrl(cached) === key);
}
