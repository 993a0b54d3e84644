/** ttlMs / cacheScope / fetchedAt of a list result, in words (SEP-2549, spec "Caching"). */

/** Longest freshness this app honours; longer server TTLs are capped (and we say so). */
export const MAX_TTL_MS = 24 * 60 * 60 * 1000;

export interface CacheInput {
  ttlMs?: unknown;
  cacheScope?: unknown;
  /** ISO timestamp of when the list was received. */
  fetchedAt?: string;
}

export interface CacheWords {
  cacheable: boolean;
  /** The TTL used: 0 when absent/negative/invalid, capped at {@link MAX_TTL_MS}. */
  effectiveTtlMs: number;
  capped: boolean;
  /** e.g. "fresh for 5 min (ttlMs 300000)", "not cacheable (ttlMs 0)". */
  freshness: string;
  /** e.g. "public — may be shared by gateways". */
  scope: string;
  scopeKind: "public" | "private" | "unstated" | "invalid";
  /** ISO time the list goes stale, when cacheable and fetchedAt is known. */
  expiresAt?: string;
  /** Whether the list is still fresh at `now` (only when expiresAt is known). */
  fresh?: boolean;
  /** e.g. "stale in 3 min" / "stale since 2 min", relative to `now`. */
  relative?: string;
}

/** A short human duration: "250 ms", "30 s", "5 min", "1 h 30 min", "2 d". */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms)) return "forever";
  const abs = Math.abs(ms);
  if (abs < 1000) return `${Math.round(abs)} ms`;
  const s = Math.round(abs / 1000);
  if (s < 60) return `${s} s`;
  const totalMin = Math.floor(s / 60);
  const secRest = s % 60;
  if (totalMin < 60) return secRest === 0 ? `${totalMin} min` : `${totalMin} min ${secRest} s`;
  const h = Math.floor(totalMin / 60);
  const minRest = totalMin % 60;
  if (h < 48) return minRest === 0 ? `${h} h` : `${h} h ${minRest} min`;
  const d = Math.floor(h / 24);
  const hRest = h % 24;
  return hRest === 0 ? `${d} d` : `${d} d ${hRest} h`;
}

/** Describe the caching hints of a list result. `now` defaults to the current time. */
export function cacheWords(input: CacheInput, now: number | Date = Date.now()): CacheWords {
  const nowMs = typeof now === "number" ? now : now.getTime();
  const raw = input.ttlMs;
  let effectiveTtlMs = 0;
  let capped = false;
  let freshness: string;
  if (raw === undefined || raw === null) {
    freshness = "not cacheable (no ttlMs: treated as 0, immediately stale)";
  } else if (typeof raw !== "number" || !Number.isFinite(raw)) {
    freshness = `not cacheable (ttlMs ${JSON.stringify(raw) ?? String(raw)} is not a number)`;
  } else if (raw < 0) {
    freshness = `not cacheable (negative ttlMs ${raw} is treated as 0)`;
  } else if (raw === 0) {
    freshness = "not cacheable (ttlMs 0: immediately stale)";
  } else {
    effectiveTtlMs = Math.floor(raw);
    if (effectiveTtlMs > MAX_TTL_MS) {
      capped = true;
      effectiveTtlMs = MAX_TTL_MS;
      freshness = `fresh for ${formatDuration(MAX_TTL_MS)} (ttlMs ${raw}, ${formatDuration(raw)}, capped at 24 h)`;
    } else if (effectiveTtlMs === 0) {
      freshness = `not cacheable (ttlMs ${raw} rounds down to 0)`;
    } else {
      freshness = `fresh for ${formatDuration(effectiveTtlMs)} (ttlMs ${raw})`;
    }
  }
  const cacheable = effectiveTtlMs > 0;

  let scope: string;
  let scopeKind: CacheWords["scopeKind"];
  if (input.cacheScope === "public") {
    scopeKind = "public";
    scope = "public — may be shared by gateways";
  } else if (input.cacheScope === "private") {
    scopeKind = "private";
    scope = "private — reusable only with the same credentials";
  } else if (input.cacheScope === undefined || input.cacheScope === null) {
    scopeKind = "unstated";
    scope = "scope not stated — shared caches should treat it as private";
  } else {
    scopeKind = "invalid";
    scope = `unknown scope ${JSON.stringify(input.cacheScope)} — treated as private`;
  }

  const words: CacheWords = { cacheable, effectiveTtlMs, capped, freshness, scope, scopeKind };
  const fetched = typeof input.fetchedAt === "string" ? Date.parse(input.fetchedAt) : NaN;
  if (cacheable && Number.isFinite(fetched)) {
    const expires = fetched + effectiveTtlMs;
    words.expiresAt = new Date(expires).toISOString();
    words.fresh = nowMs < expires;
    words.relative = words.fresh ? `stale in ${formatDuration(expires - nowMs)}` : `stale since ${formatDuration(nowMs - expires)}`;
  }
  return words;
}

/**
 * The caching hints of a recorded list (a snapshot), as declared, with no countdown: a snapshot is permanent, so
 * "fresh for 5 min, expires at …" would describe a cache that no longer exists. E.g. "The server declared ttlMs
 * 300000 (5 min) and cacheScope "public"; recorded Thu, 03 Dec 2026 11:00:00 GMT."
 */
export function recordedCacheWords(input: CacheInput): string {
  const raw = input.ttlMs;
  const ttl =
    raw === undefined || raw === null
      ? "no ttlMs"
      : typeof raw !== "number" || !Number.isFinite(raw)
        ? `ttlMs ${JSON.stringify(raw) ?? String(raw)} (not a number)`
        : raw > 0
          ? `ttlMs ${raw} (${formatDuration(raw)})`
          : `ttlMs ${raw} (not cacheable)`;
  const s = input.cacheScope;
  const scope =
    s === undefined || s === null
      ? "no cacheScope"
      : s === "public" || s === "private"
        ? `cacheScope "${s}"`
        : `cacheScope ${JSON.stringify(s) ?? String(s)} (unknown)`;
  const fetched = typeof input.fetchedAt === "string" ? Date.parse(input.fetchedAt) : NaN;
  const when = Number.isFinite(fetched) ? `; recorded ${new Date(fetched).toUTCString()}` : "";
  return `The server declared ${ttl} and ${scope}${when}.`;
}
