import "server-only";
import { Redis, type RedisOptions } from "ioredis";
import type { LogFields } from "@/lib/log/format.mjs";
import { onStop } from "../../runtime/lifecycle.ts";
import { log } from "../../log/log.ts";
import { processSingleton } from "../../runtime/process-singleton.ts";

/** Where the Redis modules report state changes (the app's log; tests pass their own). */
export type RedisLog = (msg: string, fields?: LogFields) => void;
export const warnLog: RedisLog = (msg, fields) => log.warn(msg, fields);

/** Every key Toolscope writes starts with this, so one Redis can serve other things too. */
export const REDIS_KEY_PREFIX = "toolscope:";

/**
 * Connection options: fail fast while Redis is away instead of queueing requests behind it. Nothing connects on
 * construction (`next build` imports modules); the first command (or `connect()`) does, and a lost connection is
 * retried in the background (200 ms, 400 ms, … at most every 5 s) for the life of the process.
 */
export const REDIS_OPTIONS: RedisOptions = {
  lazyConnect: true,
  // While not connected a command fails at once (callers fall back), rather than waiting in a queue.
  enableOfflineQueue: false,
  maxRetriesPerRequest: 1,
  connectTimeout: 2_000,
  // A Redis that accepts but does not answer (a network partition) must not hold requests for long.
  commandTimeout: 1_000,
  retryStrategy: (times) => Math.min(200 * times, 5_000),
};

/** Host and port of a Redis URL, for log lines (never the password). */
export function redisDisplayName(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || 6379}`;
  } catch {
    return "(invalid REDIS_URL)";
  }
}

/** One line when Redis goes away, one when it is back; not a line per failed command. */
function watch(client: Redis, name: string, report: RedisLog): void {
  let down = false;
  client.on("error", (err: Error) => {
    if (down) return;
    down = true;
    report("redis unreachable, retrying in the background", { redis: name, error: err.message });
  });
  client.on("ready", () => {
    if (!down) return;
    down = false;
    report("redis reachable again", { redis: name });
  });
}

/** A new connection to `url` with Toolscope's options (pub/sub needs one of its own). Does not connect yet. */
export function newRedis(url: string, options: RedisOptions = {}, report: RedisLog = warnLog): Redis {
  const client = new Redis(url, { ...REDIS_OPTIONS, ...options });
  watch(client, redisDisplayName(url), report);
  // A connection must not keep a process alive on its own (the server has its HTTP listener; a script or a test
  // file that touched a cache should still exit): its socket and its reconnect timer are unref'd.
  const loose = client as unknown as { stream?: { unref?: () => void }; reconnectTimeout?: { unref?: () => void } | null };
  client.on("connect", () => loose.stream?.unref?.());
  client.on("reconnecting", () => loose.reconnectTimeout?.unref?.());
  return client;
}

/** The process's command connection to `url` (rate limits, tool-list cache), made on first use. */
export function sharedRedis(url: string): Redis {
  const clients = processSingleton("redis-clients", () => {
    onStop(closeSharedRedis);
    return new Map<string, Redis>();
  });
  let client = clients.get(url);
  if (!client) clients.set(url, (client = newRedis(url)));
  return client;
}

/**
 * Wait (at most `timeoutMs`) for a lazy connection's first connect, so the first requests of a process are
 * served by Redis rather than by a fallback. Never rejects, and returns at once when Redis is known to be away
 * (reconnecting): after it, check `client.status === "ready"`.
 */
export async function firstConnect(client: Redis, timeoutMs = client.options.connectTimeout ?? 2_000): Promise<void> {
  if (client.status === "wait") void client.connect().catch(() => undefined);
  if (client.status !== "connecting" && client.status !== "connect") return;
  let timer: NodeJS.Timeout | undefined;
  let done = () => {};
  await new Promise<void>((resolve) => {
    done = resolve;
    client.once("ready", done);
    client.once("close", done);
    timer = setTimeout(done, timeoutMs);
  });
  clearTimeout(timer);
  client.off("ready", done);
  client.off("close", done);
}

/** Close every shared connection (shutdown, tests). */
export async function closeSharedRedis(): Promise<void> {
  const clients = processSingleton("redis-clients", () => new Map<string, Redis>());
  const all = [...clients.values()];
  clients.clear();
  await Promise.all(all.map((c) => c.quit().catch(() => c.disconnect())));
}
