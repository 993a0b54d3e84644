import "server-only";
import { randomUUID } from "node:crypto";
import type { Redis } from "ioredis";
import type { RpcAnswerRequest, RpcCancelRequest, RpcControlResponse, RpcStreamEvent } from "@/lib/mcp/contract";
import type { Config } from "../platform/config.ts";
import { onStop } from "../../runtime/lifecycle.ts";
import { log } from "../../log/log.ts";
import { noSuchStream, notWaiting, PendingCalls, type OpenCall } from "./pending-requests.ts";
import { processSingleton } from "../../runtime/process-singleton.ts";
import { firstConnect, newRedis, REDIS_KEY_PREFIX, sharedRedis } from "../platform/redis.ts";

/**
 * Answers and cancels for streamed /api/rpc calls (POST /api/rpc/answer, /api/rpc/cancel). The call lives in the
 * process that holds its stream; behind a load balancer the answer may reach another instance. With REDIS_URL the
 * owner claims its stream id in Redis (`toolscope:rpc-stream:<id>` → its instance id) and listens on a channel of its
 * own; another instance that gets the answer looks the owner up and publishes it there. Without Redis one process
 * needs nothing more; several instances then need sticky routing (docs/deploying.md).
 */

type ControlMessage = ({ kind: "answer" } & RpcAnswerRequest) | ({ kind: "cancel" } & RpcCancelRequest);

const STREAM_KEY = (streamId: string) => `${REDIS_KEY_PREFIX}rpc-stream:${streamId}`;
const CHANNEL = (instanceId: string) => `${REDIS_KEY_PREFIX}rpc-control:${instanceId}`;

export type ControlConfig = Pick<
  Config,
  | "serverRequestTimeoutMs"
  | "maxPendingServerRequests"
  | "maxPendingPerStream"
  | "redisUrl"
  | "streamMaxMs"
  | "listenMaxMs"
  | "requestTimeoutMs"
>;

/** The process's registry of answerable calls. */
export function pendingCalls(cfg: ControlConfig): PendingCalls {
  return processSingleton(
    "pending-calls",
    () =>
      new PendingCalls({
        timeoutMs: cfg.serverRequestTimeoutMs,
        maxPending: cfg.maxPendingServerRequests,
        maxPerStream: cfg.maxPendingPerStream,
      }),
  );
}

/** The hand-over between instances over Redis. */
export class RpcControlBus {
  readonly instanceId = randomUUID();
  #subscriber: Redis | undefined;
  #started: Promise<void> | undefined;

  constructor(
    private readonly redisUrl: string,
    private readonly deliver: (message: ControlMessage) => void,
  ) {}

  /** Listen on this instance's channel (idempotent). */
  start(): Promise<void> {
    return (this.#started ??= (async () => {
      const sub = (this.#subscriber = newRedis(this.redisUrl, {
        enableOfflineQueue: true,
        maxRetriesPerRequest: null,
        commandTimeout: undefined,
      }));
      sub.on("message", (_channel: string, raw: string) => {
        try {
          this.deliver(JSON.parse(raw) as ControlMessage);
        } catch (err) {
          log.debug("rpc control message not delivered", { reason: (err as Error).message });
        }
      });
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        sub.subscribe(CHANNEL(this.instanceId)).catch(() => undefined),
        new Promise<void>((resolve) => (timer = setTimeout(resolve, 2_000))),
      ]);
      clearTimeout(timer);
    })());
  }

  /** This instance holds the stream for up to `ttlMs`. */
  async claim(streamId: string, ttlMs: number): Promise<void> {
    const redis = sharedRedis(this.redisUrl);
    await firstConnect(redis);
    await redis.set(STREAM_KEY(streamId), this.instanceId, "PX", ttlMs);
  }

  async release(streamId: string): Promise<void> {
    await sharedRedis(this.redisUrl).del(STREAM_KEY(streamId));
  }

  /** Send a message to the instance holding its stream; false when none does. */
  async relay(message: ControlMessage): Promise<boolean> {
    const redis = sharedRedis(this.redisUrl);
    await firstConnect(redis);
    const owner = await redis.get(STREAM_KEY(message.streamId));
    if (!owner || owner === this.instanceId) return false;
    return (await redis.publish(CHANNEL(owner), JSON.stringify(message))) > 0;
  }

  async close(): Promise<void> {
    const sub = this.#subscriber;
    this.#subscriber = undefined;
    this.#started = undefined;
    if (sub) await sub.quit().catch(() => sub.disconnect());
  }
}

function applyLocally(registry: PendingCalls, message: ControlMessage): void {
  if (message.kind === "answer")
    registry.answer(message.streamId, message.pendingId, message.response, message.prepared ? "prepared" : "user");
  else registry.cancel(message.streamId);
}

function controlBus(cfg: ControlConfig): RpcControlBus | undefined {
  const url = cfg.redisUrl;
  if (!url) return undefined;
  return processSingleton("rpc-control-bus", () => {
    const bus = new RpcControlBus(url, (message) => applyLocally(pendingCalls(cfg), message));
    onStop(() => bus.close());
    return bus;
  });
}

/** Register a streamed call (and, with Redis, claim its stream id for this instance). Never fails for Redis. */
export async function openCall(emit: (e: RpcStreamEvent) => void, cancel: () => void, cfg: ControlConfig): Promise<OpenCall> {
  const call = pendingCalls(cfg).open(emit, cancel);
  const bus = controlBus(cfg);
  if (!bus) return call;
  const ttlMs = Math.max(cfg.streamMaxMs, cfg.listenMaxMs) + cfg.requestTimeoutMs + 60_000;
  try {
    await bus.start();
    await bus.claim(call.streamId, ttlMs);
  } catch (err) {
    log.warn("could not register the call in Redis: answers must reach this instance", { reason: (err as Error).message });
    return call;
  }
  return {
    ...call,
    close() {
      call.close();
      void bus.release(call.streamId).catch(() => undefined);
    },
  };
}

/** Deliver a control message here when this process holds the stream, else to its owner over Redis. */
async function control(message: ControlMessage, cfg: ControlConfig): Promise<RpcControlResponse> {
  const registry = pendingCalls(cfg);
  if (registry.holds(message.streamId)) {
    applyLocally(registry, message);
    return { ok: true, delivered: "local" };
  }
  const relayed = await controlBus(cfg)
    ?.relay(message)
    .catch((err: unknown) => {
      log.warn("could not pass an answer to another instance over Redis", { reason: (err as Error).message });
      return false;
    });
  if (relayed) return { ok: true, delivered: "relayed" };
  throw message.kind === "answer" ? notWaiting() : noSuchStream();
}

/** POST /api/rpc/answer */
export function answerServerRequest(input: RpcAnswerRequest, cfg: ControlConfig): Promise<RpcControlResponse> {
  return control({ kind: "answer", ...input }, cfg);
}

/** POST /api/rpc/cancel */
export function cancelCall(input: RpcCancelRequest, cfg: ControlConfig): Promise<RpcControlResponse> {
  return control({ kind: "cancel", ...input }, cfg);
}
