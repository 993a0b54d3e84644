import "server-only";
import { config } from "./config.ts";
import { isShuttingDown } from "../../runtime/lifecycle.ts";
import { firstConnect, sharedRedis } from "./redis.ts";
import { loadSnapshot } from "../snapshots/snapshot-store.ts";

/** How long one readiness check may take before it counts as failed: a load balancer's probe must stay cheap. */
export const READINESS_CHECK_TIMEOUT_MS = 2_000;

type Check = { ok: true; ms: number } | { ok: false; ms: number; error: string };

async function timed(run: () => Promise<unknown>): Promise<Check> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      run(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${READINESS_CHECK_TIMEOUT_MS} ms`)), READINESS_CHECK_TIMEOUT_MS);
      }),
    ]);
    return { ok: true, ms: Math.round(performance.now() - started) };
  } catch (err) {
    // Only the failure's own words: a connection error may name the host, never the URL with its password.
    return { ok: false, ms: Math.round(performance.now() - started), error: (err as Error).message.replace(/\/\/[^@/\s]*@/g, "//") };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Liveness: the process answers (200, no work). Readiness: 503 only when this instance cannot serve (configuration
 * broken, shutting down). The shared stores are checked too, but one that is down (the snapshot store, Redis) is
 * `200 degraded` naming it: rpc, connect and tools keep working without them (Share answers 503, limits count per
 * instance), and a load balancer that took every instance out over it would turn one feature's outage into a full
 * one. Nothing secret in the body.
 */
export async function health(ready: boolean): Promise<{ status: number; body: Record<string, unknown> }> {
  if (!ready) return { status: 200, body: { status: "ok" } };
  let cfgError: string | undefined;
  try {
    config();
  } catch (err) {
    cfgError = (err as Error).message;
  }
  if (cfgError) return { status: 503, body: { status: "misconfigured", error: cfgError } };
  if (isShuttingDown()) return { status: 503, body: { status: "shutting-down" } };
  const redisUrl = config().redisUrl;
  const [snapshots, redis] = await Promise.all([
    // A read of an id that cannot exist: it reaches the database without touching a real row.
    timed(() => loadSnapshot("health-check-000000000")),
    // The connection is lazy and commands fail at once while it is not up (no offline queue): the first probe
    // after a start waits for the first connect (within the check's bound) instead of reporting Redis down.
    redisUrl ? timed(() => pingRedis(redisUrl)) : undefined,
  ]);
  const checks: Record<string, Check> = redis ? { snapshots, redis } : { snapshots };
  const degraded = Object.keys(checks).filter((name) => !checks[name].ok);
  return degraded.length === 0
    ? { status: 200, body: { status: "ready", checks } }
    : { status: 200, body: { status: "degraded", degraded, checks } };
}

async function pingRedis(url: string): Promise<unknown> {
  const client = sharedRedis(url);
  await firstConnect(client, READINESS_CHECK_TIMEOUT_MS - 100);
  return client.ping();
}
