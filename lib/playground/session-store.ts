import type { ConnectResponse, UserHeaders } from "../mcp/contract.ts";

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
