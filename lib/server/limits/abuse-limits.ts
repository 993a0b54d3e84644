import "server-only";
import type { Config, LimitsConfig, RateClass } from "../platform/config.ts";
import { ProxyError } from "@/lib/upstream/policy";
import { MemoryRateStore, type RateStore } from "./rate-store.ts";
import { RedisRateStore } from "./rate-store-redis.ts";

/** A refusal by one of the abuse limits: a 429 with when to retry. */
export class LimitError extends ProxyError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
    hint = `Try again in ${retryAfterSeconds} s.`,
  ) {
    super("rate-limited", message, hint);
    this.name = "LimitError";
  }
}

export { MemoryRateStore, RedisRateStore, type RateStore };

/**
 * The rate store for this configuration: Redis when REDIS_URL is set (counts shared by every instance; while Redis
 * is away each instance counts in memory, see RedisRateStore), else memory. Connects nothing until first used;
 * keep one per process (processSingleton).
 */
export function rateStore(cfg: Pick<Config, "redisUrl">): RateStore {
  return cfg.redisUrl ? new RedisRateStore(cfg.redisUrl) : new MemoryRateStore();
}

const RATE_WORDS: Record<RateClass, string> = {
  connect: "connects",
  tools: "tool list requests",
  rpc: "calls",
  docs: "docs page loads of live servers",
  snapshots: "shared snapshots",
  icons: "icon loads",
  oauth: "sign-in steps and sign-outs",
  control: "answers and cancels of streamed calls",
};

/** What requests of each class are, for messages (admission.ts says "… in progress" with it). */
export function rateWords(c: RateClass): string {
  return RATE_WORDS[c];
}

/** Names of the settings, for messages that say what an operator can change. */
function rateSetting(c: RateClass): string {
  return `TOOLSCOPE_RATE_${c.toUpperCase()}_PER_MIN`;
}

/** Count a request of class `c` from `client`; throws a LimitError (429) when over the per-minute rate. */
export async function consumeRate(store: RateStore, limits: LimitsConfig, c: RateClass, client: string): Promise<void> {
  const points = limits.ratePerMinute[c];
  const r = await store.consume(`rate-${c}`, points, 60, client);
  if (!r.ok) {
    throw new LimitError(`Too many ${RATE_WORDS[c]}: at most ${points} a minute from one client (${rateSetting(c)}).`, r.retryAfterSeconds);
  }
}

/** Count one snapshot against the client's daily quota; throws a LimitError when it is used up. */
export async function consumeSnapshotQuota(store: RateStore, limits: LimitsConfig, client: string): Promise<void> {
  const r = await store.consume("snapshots-day", limits.snapshotsPerClientPerDay, 24 * 60 * 60, client);
  if (!r.ok) {
    throw new LimitError(
      `You have shared ${limits.snapshotsPerClientPerDay} snapshots today, the most one client may (TOOLSCOPE_SNAPSHOTS_PER_CLIENT_PER_DAY).`,
      r.retryAfterSeconds,
      `Try again in ${Math.ceil(r.retryAfterSeconds / 3600)} h; a share link of the live docs page needs no snapshot.`,
    );
  }
}

export type SlotKind = "request" | "stream";

/**
 * Upstream requests and open event streams in flight, per client and in all. A request over a cap is refused at
 * once (429), never queued: a queue would hold the caller's connection for as long as someone else's stream.
 */
export class ConcurrencySlots {
  readonly #perClient = new Map<string, number>();
  #total = 0;

  constructor(
    readonly kind: SlotKind,
    readonly perClientMax: number,
    readonly totalMax: number,
  ) {}

  /** Take a slot for `client`; the returned function gives it back (idempotent). */
  acquire(client: string): () => void {
    const mine = this.#perClient.get(client) ?? 0;
    const what = this.kind === "stream" ? "open streams" : "requests in progress";
    const setting = this.kind === "stream" ? "STREAMS" : "CONCURRENT";
    if (mine >= this.perClientMax) {
      throw new LimitError(
        `You have ${mine} ${what}, the most one client may have at once (TOOLSCOPE_MAX_${setting}_PER_CLIENT).`,
        1,
        "Wait for one to finish, or close one, and try again.",
      );
    }
    if (this.#total >= this.totalMax) {
      throw new LimitError(
        `Toolscope has ${this.#total} ${what}, the most it takes at once (TOOLSCOPE_MAX_${setting}_TOTAL).`,
        5,
        "Try again in a few seconds.",
      );
    }
    this.#perClient.set(client, mine + 1);
    this.#total++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#total--;
      const left = (this.#perClient.get(client) ?? 1) - 1;
      if (left <= 0) this.#perClient.delete(client);
      else this.#perClient.set(client, left);
    };
  }

  /** Slots in use, for tests and health. */
  inUse(client?: string): number {
    return client === undefined ? this.#total : (this.#perClient.get(client) ?? 0);
  }
}
