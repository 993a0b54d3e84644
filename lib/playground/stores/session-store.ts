import type { ConnectResponse, UserHeaders } from "../../mcp/contract.ts";

/**
 * Browser-side memory of connections. Descriptors (no secrets) go to localStorage; user headers
 * (credentials) only to sessionStorage, so they die with the tab and never reach a share link.
 */
const CONNECTIONS = "toolscope.connections.v1";
const HEADERS = "toolscope.headers.v1";

function read<T>(storage: Storage, key: string, fallback: T): T {
  try {
    const raw = storage.getItem(key);
    return raw ? (JSON.parse(raw) as T) : fallback;
  } catch {
    return fallback;
  }
}

export function saveConnection(url: string, value: ConnectResponse): void {
  const all = read<Record<string, ConnectResponse>>(localStorage, CONNECTIONS, {});
  all[url] = value;
  localStorage.setItem(CONNECTIONS, JSON.stringify(all));
}

export function loadConnection(url: string): ConnectResponse | undefined {
  return read<Record<string, ConnectResponse>>(localStorage, CONNECTIONS, {})[url];
}

export function saveHeaders(url: string, headers: UserHeaders): void {
  const all = read<Record<string, UserHeaders>>(sessionStorage, HEADERS, {});
  if (Object.keys(headers).length) all[url] = headers;
  else delete all[url];
  sessionStorage.setItem(HEADERS, JSON.stringify(all));
}

export function loadHeaders(url: string): UserHeaders {
  return read<Record<string, UserHeaders>>(sessionStorage, HEADERS, {})[url] ?? {};
}

const HANDOFF = "toolscope.handoff.v1";
/** How long a handed-off request waits for the playground it was meant for. */
export const HANDOFF_TTL_MS = 30_000;

/**
 * Leave a request for another server's playground to pick up: for servers a share-style link cannot name
 * (stdio), replaying from history goes through the tab's sessionStorage instead of the URL. Nothing is sent.
 */
export function handOffRequest(server: string, request: string, now = Date.now()): void {
  sessionStorage.setItem(HANDOFF, JSON.stringify({ server, request, at: now }));
}

/** The request handed off to `server` in the last {@link HANDOFF_TTL_MS}, if any (read-only: safe to call twice). */
export function handedOffRequest(server: string, now = Date.now()): string | undefined {
  const h = read<{ server?: unknown; request?: unknown; at?: unknown } | null>(sessionStorage, HANDOFF, null);
  if (!h || h.server !== server || typeof h.request !== "string" || typeof h.at !== "number" || now - h.at > HANDOFF_TTL_MS)
    return undefined;
  return h.request;
}
