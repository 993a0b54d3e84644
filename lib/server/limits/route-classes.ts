import "server-only";
import type { RateClass } from "../platform/config.ts";

/**
 * How one API route is metered. A route that makes Toolscope work or fetch for a caller has a class: its request
 * rate per client (the guard, abuse-limits.ts) and its work in flight per instance (admission.ts) are counted under
 * it, for the one method the route serves. A route that does neither says why it is left out.
 */
export type RouteMeter = { class: RateClass; method: "GET" | "POST" } | { unmetered: string };

/**
 * Every route under app/api, by path. route-classes.test.ts walks app/api and fails for a route.ts missing here (or
 * an entry with no route), so a new route cannot be added without deciding how it is metered.
 */
export const API_ROUTES: Readonly<Record<string, RouteMeter>> = {
  "/api/connect": { class: "connect", method: "POST" },
  "/api/tools": { class: "tools", method: "POST" },
  "/api/rpc": { class: "rpc", method: "POST" },
  "/api/disconnect": { class: "rpc", method: "POST" },
  "/api/snapshots": { class: "snapshots", method: "POST" },
  "/api/icon": { class: "icons", method: "GET" },
  // Each step asks the authorization server (metadata, registration, token): several requests to another host.
  "/api/oauth/authorize": { class: "oauth", method: "POST" },
  "/api/oauth/revoke": { class: "oauth", method: "POST" },
  // Sent by the browser during its own streamed call (an answer goes upstream as the JSON-RPC response, a cancel as
  // notifications/cancelled): a class of its own, generous, so that a busy playground never meets the rpc rate.
  "/api/rpc/answer": { class: "control", method: "POST" },
  "/api/rpc/cancel": { class: "control", method: "POST" },
  "/api/health": {
    unmetered: "liveness and readiness for load balancers: answered ahead of everything, reaching no server",
  },
  "/api/demo/mcp": { unmetered: "the builtin demo server, run in this process: it fetches nothing" },
  "/api/bench/echo": { unmetered: "not found unless TOOLSCOPE_BENCH=1; echoes its body and fetches nothing" },
  // An app's view and its messages reach the app's server like the playground's own calls, under the same class.
  "/api/apps/view": { class: "rpc", method: "POST" },
  "/api/apps/rpc": { class: "rpc", method: "POST" },
  // Each operation is one to a few requests to the connection's server (get then read), like a playground call.
  "/api/skills": { class: "rpc", method: "POST" },
  "/api/apps/sandbox": { unmetered: "the static relay page MCP App views run under; reads no server" },
  "/api/stdio": { unmetered: "names the stdio servers of the local config file; reads no server" },
};

/** The class of a request to `path` with `method`, when it is metered. */
export function routeClass(path: string, method: string): RateClass | undefined {
  const meter = Object.hasOwn(API_ROUTES, path) ? API_ROUTES[path] : undefined;
  return meter && "class" in meter && meter.method === method ? meter.class : undefined;
}
