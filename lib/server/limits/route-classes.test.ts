import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { RATE_CLASSES } from "../platform/config.ts";
import { API_ROUTES, routeClass } from "./route-classes.ts";

const APP_API = fileURLToPath(new URL("../../../app/api", import.meta.url));

/** Every app/api/**\/route.ts, as its URL path ("/api/oauth/authorize") and its source. */
function apiRoutes(dir = APP_API): { path: string; source: string }[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = join(dir, e.name);
    if (e.isDirectory()) return apiRoutes(full);
    if (e.name !== "route.ts") return [];
    const folder = relative(APP_API, dir).split(sep).filter(Boolean);
    return [{ path: ["/api", ...folder].join("/"), source: readFileSync(full, "utf8") }];
  });
}

test("every route under app/api is in API_ROUTES, metered or unmetered with a reason", () => {
  const routes = apiRoutes();
  assert.ok(routes.length >= 10, `expected the API routes under ${APP_API}, found ${routes.length}`);
  const missing = routes.map((r) => r.path).filter((p) => !Object.hasOwn(API_ROUTES, p));
  assert.deepEqual(
    missing,
    [],
    `add these routes to API_ROUTES in lib/server/limits/route-classes.ts, with a class or a reason: ${missing.join(", ")}`,
  );
  const stale = Object.keys(API_ROUTES).filter((p) => !routes.some((r) => r.path === p));
  assert.deepEqual(stale, [], `API_ROUTES names routes that do not exist: ${stale.join(", ")}`);
  for (const [path, meter] of Object.entries(API_ROUTES)) {
    if ("class" in meter) assert.ok(RATE_CLASSES.includes(meter.class), `${path}: unknown class ${meter.class}`);
    else assert.ok(meter.unmetered.trim().length >= 20, `${path}: say why it is unmetered`);
  }
});

test("a route that makes Toolscope fetch for its caller has a class, for the method it serves", () => {
  for (const { path, source } of apiRoutes()) {
    // handleApi runs a proxy call (connect, tools, rpc, OAuth, answers); the egress guard is every other fetch.
    const fetches = /\bhandleApi\(|\bcreateSafeFetch\(/.test(source);
    if (!fetches) continue;
    const meter = API_ROUTES[path];
    assert.ok(meter && "class" in meter, `${path} fetches for its caller but is not metered`);
    assert.match(source, new RegExp(`export const ${meter.method} = guardedRoute\\b`), `${path}: API_ROUTES says ${meter.method}`);
  }
});

test("every API route but the health probe is guarded by its own handler (proxy.ts does not run for /api/)", () => {
  for (const { path, source } of apiRoutes()) {
    const methods = [...source.matchAll(/^export (?:const|async function|function) (GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)\b.*$/gm)];
    assert.ok(methods.length > 0, `${path} exports no handler`);
    if (path === "/api/health") continue; // load balancers probe it by IP, without a browser's headers
    for (const [line, method] of methods)
      assert.match(
        line,
        new RegExp(`^export const ${method} = guardedRoute\\(`),
        `${path}: wrap ${method} in guardedRoute (lib/server/api/guarded-route.ts)`,
      );
  }
});

test("the OAuth routes and the answer and cancel routes are metered in classes of their own", () => {
  assert.equal(routeClass("/api/oauth/authorize", "POST"), "oauth");
  assert.equal(routeClass("/api/oauth/revoke", "POST"), "oauth");
  assert.equal(routeClass("/api/rpc/answer", "POST"), "control");
  assert.equal(routeClass("/api/rpc/cancel", "POST"), "control");
  assert.equal(routeClass("/api/rpc", "POST"), "rpc");
  // A method the route does not serve is answered 405 by Next.js: nothing to count.
  assert.equal(routeClass("/api/rpc", "GET"), undefined);
  assert.equal(routeClass("/api/icon", "GET"), "icons");
  assert.equal(routeClass("/api/health", "GET"), undefined);
  assert.equal(routeClass("/api/constructor", "POST"), undefined);
});
