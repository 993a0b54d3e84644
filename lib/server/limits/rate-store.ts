import "server-only";
import { RateLimiterMemory, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";

/**
 * Where request counts are kept. In memory for one process (MemoryRateStore); in Redis for several instances
 * (RedisRateStore in rate-store-redis.ts, rate-limiter-flexible's `RateLimiterRedis`). `rateStore(cfg)` picks.
 */
export interface RateStore {
  /** Count one request of `key`; resolves with the seconds to wait when over `points` per `durationSeconds`. */
  consume(
    name: string,
    points: number,
    durationSeconds: number,
    key: string,
  ): Promise<{ ok: true } | { ok: false; retryAfterSeconds: number }>;
}

/** rate-limiter-flexible's memory store: one limiter per (name, points, duration). */
export class MemoryRateStore implements RateStore {
  readonly #limiters = new Map<string, RateLimiterAbstract>();

  async consume(name: string, points: number, durationSeconds: number, key: string) {
    const id = `${name}:${points}:${durationSeconds}`;
    let limiter = this.#limiters.get(id);
    if (!limiter) this.#limiters.set(id, (limiter = new RateLimiterMemory({ keyPrefix: name, points, duration: durationSeconds })));
    try {
      await limiter.consume(key);
      return { ok: true as const };
    } catch (res) {
      if (!(res instanceof RateLimiterRes)) throw res;
      return { ok: false as const, retryAfterSeconds: Math.max(1, Math.ceil(res.msBeforeNext / 1000)) };
    }
  }
}
