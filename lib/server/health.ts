import "server-only";
import { config } from "./config.ts";
import { isShuttingDown } from "./lifecycle.ts";
import { sharedRedis } from "./redis.ts";
import { loadSnapshot } from "./snapshot-store.ts";

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
 * Liveness: the process answers (200, no work). Readiness: configuration valid, not shutting down, and the storage
 * behind snapshots answers a read. 503 with what failed otherwise; nothing secret in the body.
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
  // A read of an id that cannot exist: it reaches the database without touching a real row.
  const checks: Record<string, Check> = { snapshots: await timed(() => loadSnapshot("health-check-000000000")) };
  const redisUrl = config().redisUrl;
  // Redis down is not fatal to serving (limits fall back per instance), but an operator must see it.
  if (redisUrl) checks.redis = await timed(() => sharedRedis(redisUrl).ping());
  const ok = Object.values(checks).every((c) => c.ok);
  return { status: ok ? 200 : 503, body: { status: ok ? "ready" : "unready", checks } };
}
