import "server-only";
import { randomUUID } from "node:crypto";
import type { Redis } from "ioredis";
import { firstConnect, newRedis, REDIS_KEY_PREFIX, sharedRedis, warnLog, type RedisLog } from "../platform/redis.ts";

/** The channel on which instances tell each other that a server's tool list changed. */
export const TOOL_LIST_CHANNEL = `${REDIS_KEY_PREFIX}tool-list-changed`;

interface Message {
  /** The instance that saw the list_changed (it has already dropped its own copies). */
  from: string;
  url: string;
}

export interface ToolListBusOptions {
  /** Connection for PUBLISH (default: the process's shared one). */
  publisher?: Redis;
  /** Connection for SUBSCRIBE, which needs one of its own (default: a new one). */
  subscriber?: Redis;
  log?: RedisLog;
}

/**
 * `notifications/tools/list_changed` between instances over Redis pub/sub. The instance that sees one drops its
 * own cached copies (its invalidation hooks) and publishes the server URL; every other instance runs its hooks
 * for it (`onRemote`): docs snapshots and last-good copies are per process, so a shared cache alone is not enough.
 *
 * Delivery is at most once: an instance whose subscription is down misses messages, and its docs snapshots are
 * then at most DOCS_SNAPSHOT_MAX_AGE_MS (30 s) old anyway. Nothing connects before `start()` or `publish()`.
 */
export class ToolListBus {
  readonly instanceId = randomUUID();
  readonly #redisUrl: string;
  readonly #onRemote: (url: string) => unknown;
  readonly #options: ToolListBusOptions;
  readonly #log: RedisLog;
  #subscriber: Redis | undefined;
  #started: Promise<void> | undefined;

  constructor(redisUrl: string, onRemote: (url: string) => unknown, options: ToolListBusOptions = {}) {
    this.#redisUrl = redisUrl;
    this.#onRemote = onRemote;
    this.#options = options;
    this.#log = options.log ?? warnLog;
  }

  /**
   * Subscribe (idempotent; cheap after the first call). Call it wherever a tool list gets cached, so an instance
   * listens as soon as it holds anything a message could invalidate. Resolves once subscribed, or after the
   * connect timeout while Redis is away (it keeps trying in the background and resubscribes on reconnect).
   */
  start(): Promise<void> {
    return (this.#started ??= (async () => {
      // Its own connection, in subscriber mode: the SUBSCRIBE waits in the offline queue until connected.
      const sub = (this.#subscriber =
        this.#options.subscriber ??
        newRedis(this.#redisUrl, { enableOfflineQueue: true, maxRetriesPerRequest: null, commandTimeout: undefined }, this.#log));
      sub.on("message", (channel: string, raw: string) => {
        if (channel !== TOOL_LIST_CHANNEL) return;
        let msg: Message;
        try {
          msg = JSON.parse(raw) as Message;
        } catch {
          return;
        }
        if (msg.from === this.instanceId || typeof msg.url !== "string") return;
        Promise.resolve()
          .then(() => this.#onRemote(msg.url))
          .catch((err: unknown) => this.#log("tool-list invalidation from another instance failed", { error: (err as Error).message }));
      });
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        sub.subscribe(TOOL_LIST_CHANNEL).catch(() => undefined),
        new Promise<void>((resolve) => (timer = setTimeout(resolve, sub.options.connectTimeout ?? 2_000))),
      ]);
      clearTimeout(timer);
    })());
  }

  /** Tell the other instances that `url`'s tool list changed (after dropping this instance's own copies). */
  async publish(url: string): Promise<void> {
    const message: Message = { from: this.instanceId, url };
    const publisher = this.#options.publisher ?? sharedRedis(this.#redisUrl);
    await firstConnect(publisher);
    await publisher.publish(TOOL_LIST_CHANNEL, JSON.stringify(message));
  }

  /** Stop listening (shutdown, tests). */
  async close(): Promise<void> {
    const sub = this.#subscriber;
    this.#subscriber = undefined;
    this.#started = undefined;
    if (sub && !this.#options.subscriber) await sub.quit().catch(() => sub.disconnect());
  }
}
