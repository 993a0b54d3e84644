import "server-only";
import type { Redis } from "ioredis";
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type IRateLimiterOptions } from "rate-limiter-flexible";
import type { RateStore } from "./rate-store.ts";
import { firstConnect, REDIS_KEY_PREFIX, sharedRedis, warnLog, type RedisLog } from "../platform/redis.ts";

/** After Redis failed a request, the next ones skip it for this long: a partition would otherwise cost each one the command timeout. */
export const REDIS_RETRY_AFTER_MS = 5_000;

/**
 * The per-process stand-in used while Redis is away (rate-limiter-flexible's `insuranceLimiter`). It tells the
 * store each time it stands in; `direct` counts without that, for requests that skip Redis on purpose.
 */
class Insurance extends RateLimiterMemory {
  constructor(
    opts: IRateLimiterOptions,
    private readonly onStandIn: () => void,
  ) {
    super(opts);
  }

  override consume(key: string | number, points?: number, options?: { [key: string]: unknown }): Promise<RateLimiterRes> {
    this.onStandIn();
    return super.consume(key, points, options);
  }

  direct(key: string): Promise<RateLimiterRes> {
    return super.consume(key);
  }
}

export interface RedisRateStoreOptions {
  /** Key prefix (default `toolscope:rl:`); each limit adds `<name>:` and the client. */
  keyPrefix?: string;
  log?: RedisLog;
  /** Clock for the skip-Redis window (tests). */
  now?: () => number;
}

/**
 * Request counts in Redis (rate-limiter-flexible's `RateLimiterRedis` over ioredis), shared by every instance
 * behind the load balancer, so a client gets N requests a minute in all, not N per instance.
 *
 * When Redis is away, limits do not fail closed (a Redis outage would take the whole public playground down with
 * it) nor plainly open (a flood would then reach the upstream servers unchecked): each instance counts in memory,
 * as a single instance does, so the limits still hold per instance (at most N times the configured rate in all),
 * and one warning line says so. Redis is tried again after REDIS_RETRY_AFTER_MS; ioredis reconnects in the background.
 */
export class RedisRateStore implements RateStore {
  readonly #source: string | Redis;
  readonly #prefix: string;
  readonly #log: RedisLog;
  readonly #now: () => number;
  readonly #limiters = new Map<string, { redis: RateLimiterRedis; memory: Insurance }>();
  #client: Redis | undefined;
  #connected: Promise<void> | undefined;
  #skipUntil = -Infinity;
  #lastStandIn = -Infinity;
  #degraded = false;

  /** `source`: a redis:// URL (the process's shared connection) or a client. Nothing connects before the first request. */
  constructor(source: string | Redis, options: RedisRateStoreOptions = {}) {
    this.#source = source;
    this.#prefix = options.keyPrefix ?? `${REDIS_KEY_PREFIX}rl:`;
    this.#log = options.log ?? warnLog;
    this.#now = options.now ?? Date.now;
  }

  #standIn(): void {
    const now = this.#now();
    this.#lastStandIn = now;
    this.#skipUntil = now + REDIS_RETRY_AFTER_MS;
    if (this.#degraded) return;
    this.#degraded = true;
    this.#log("rate limits counted per instance: Redis unavailable", { fallback: "memory", retryAfterMs: REDIS_RETRY_AFTER_MS });
  }

  #limiter(client: Redis, name: string, points: number, durationSeconds: number) {
    const id = `${name}:${points}:${durationSeconds}`;
    let entry = this.#limiters.get(id);
    if (!entry) {
      const memory = new Insurance({ keyPrefix: name, points, duration: durationSeconds }, () => this.#standIn());
      const redis = new RateLimiterRedis({
        storeClient: client,
        keyPrefix: `${this.#prefix}${name}`,
        points,
        duration: durationSeconds,
        // Not connected: straight to the stand-in, no waiting for a timeout.
        rejectIfRedisNotReady: true,
        insuranceLimiter: memory,
        // A client over its limit is refused here until its window ends, without asking Redis each time (floods).
        inMemoryBlockOnConsumed: points + 1,
      });
      this.#limiters.set(id, (entry = { redis, memory }));
    }
    return entry;
  }

  async consume(name: string, points: number, durationSeconds: number, key: string) {
    const client = (this.#client ??= typeof this.#source === "string" ? sharedRedis(this.#source) : this.#source);
    await (this.#connected ??= firstConnect(client));
    const { redis, memory } = this.#limiter(client, name, points, durationSeconds);
    const started = this.#now();
    try {
      if (started < this.#skipUntil) {
        await memory.direct(key);
      } else {
        await redis.consume(key);
        if (this.#degraded && this.#lastStandIn < started) {
          this.#degraded = false;
          this.#log("rate limits shared again: Redis answers");
        }
      }
      return { ok: true as const };
    } catch (res) {
      if (!(res instanceof RateLimiterRes)) throw res;
      return { ok: false as const, retryAfterSeconds: Math.max(1, Math.ceil(res.msBeforeNext / 1000)) };
    }
  }
}
