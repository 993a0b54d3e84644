import "server-only";
import { randomUUID } from "node:crypto";
import type { RpcStreamEvent, ServerRequestAnswerer } from "@/lib/mcp/contract";
import { ProxyError } from "@/lib/upstream/policy";
import { NO_ANSWER, pingAnswer, WITHDRAWN, type AnswerBody, type AskOutcome, type ServerRequestAsker } from "@/lib/upstream";

/**
 * The streamed /api/rpc calls of this process that a person can answer, and the server requests each is waiting on.
 *
 * A call is registered when its stream opens (its `streamId`, an unguessable UUID, is the stream's first event); a
 * server request raised during it gets a `pendingId` (another UUID) and goes to the browser as an event. The answer
 * (POST /api/rpc/answer) must name both, so it can only come from whoever reads that stream. Each pending request
 * ends exactly once: answered, timed out (the server gets a JSON-RPC error, the browser an event saying so), or
 * dropped with its call (cancel, stream closed, exchange over). Bounded by a per-process and a per-stream count.
 */

export interface PendingLimits {
  timeoutMs: number;
  maxPending: number;
  maxPerStream: number;
}

interface Pending {
  settle(outcome: AskOutcome, note?: string): void;
}

interface Call {
  pending: Map<string, Pending>;
  cancel: () => void;
}

export interface OpenCall {
  readonly streamId: string;
  /** Asks the browser through the call's stream. */
  readonly asker: ServerRequestAsker;
  /** The call is over: whatever still waits is answered with an error. */
  close(): void;
}

export class PendingCalls {
  readonly #calls = new Map<string, Call>();
  #pendingCount = 0;

  constructor(
    private readonly limits: PendingLimits,
    private readonly timers: { set(run: () => void, ms: number): unknown; clear(handle: unknown): void } = {
      set: (run, ms) => setTimeout(run, ms).unref(),
      clear: (handle) => clearTimeout(handle as NodeJS.Timeout),
    },
  ) {}

  get pendingCount(): number {
    return this.#pendingCount;
  }

  get callCount(): number {
    return this.#calls.size;
  }

  /** Register a streamed call: `emit` writes to its stream, `cancel` stops its run (POST /api/rpc/cancel). */
  open(emit: (e: RpcStreamEvent) => void, cancel: () => void, streamId: string = randomUUID()): OpenCall {
    const call: Call = { pending: new Map(), cancel };
    this.#calls.set(streamId, call);
    const asker: ServerRequestAsker = { ask: (request, signal) => this.#ask(streamId, call, request, signal, emit) };
    return {
      streamId,
      asker,
      close: () => {
        for (const p of [...call.pending.values()])
          p.settle(dropped("cancelled", "the call ended before an answer came"), "The call ended before you answered.");
        this.#calls.delete(streamId);
      },
    };
  }

  #ask(
    streamId: string,
    call: Call,
    request: Record<string, unknown>,
    signal: AbortSignal,
    emit: (e: RpcStreamEvent) => void,
  ): Promise<AskOutcome> {
    const ping = pingAnswer(request);
    if (ping) return Promise.resolve(ping);
    if (signal.aborted || !this.#calls.has(streamId)) return Promise.resolve(dropped("cancelled", "the call has ended"));
    if (this.#pendingCount >= this.limits.maxPending)
      return Promise.resolve(
        dropped(
          "proxy",
          `Toolscope has ${this.#pendingCount} server requests waiting for answers, its limit (TOOLSCOPE_MAX_PENDING_SERVER_REQUESTS)`,
        ),
      );
    if (call.pending.size >= this.limits.maxPerStream)
      return Promise.resolve(
        dropped(
          "proxy",
          `this call already has ${call.pending.size} server requests waiting, its limit (TOOLSCOPE_MAX_PENDING_PER_STREAM)`,
        ),
      );
    const pendingId = randomUUID();
    return new Promise<AskOutcome>((resolve) => {
      let done = false;
      const settle = (outcome: AskOutcome, note?: string) => {
        if (done) return;
        done = true;
        this.timers.clear(timer);
        signal.removeEventListener("abort", onAbort);
        call.pending.delete(pendingId);
        this.#pendingCount--;
        emit({ type: "server-request-ended", pendingId, answeredBy: outcome.answeredBy, ...(note ? { note } : {}) });
        resolve(outcome);
      };
      const seconds = Math.round(this.limits.timeoutMs / 1000);
      const timer = this.timers.set(
        () =>
          settle(
            dropped("timeout", `no answer within ${seconds} s (TOOLSCOPE_SERVER_REQUEST_TIMEOUT_MS)`),
            `No answer within ${seconds} s (TOOLSCOPE_SERVER_REQUEST_TIMEOUT_MS): the server got a JSON-RPC error instead.`,
          ),
        this.limits.timeoutMs,
      );
      const onAbort = () =>
        signal.reason === WITHDRAWN
          ? settle(
              dropped("cancelled", "the server withdrew the request"),
              "The server withdrew this request (notifications/cancelled), so it no longer waits for an answer.",
            )
          : settle(dropped("cancelled", "the call was cancelled"), "The call ended before you answered.");
      signal.addEventListener("abort", onAbort, { once: true });
      call.pending.set(pendingId, { settle });
      this.#pendingCount++;
      emit({ type: "server-request", streamId, pendingId, request, timeoutMs: this.limits.timeoutMs });
    });
  }

  /** The browser's answer (the person's, or a collection's prepared one). Throws `not-found` when nothing with these ids waits here. */
  answer(streamId: string, pendingId: string, response: AnswerBody, by: "user" | "prepared" = "user"): void {
    const pending = this.#calls.get(streamId)?.pending.get(pendingId);
    if (!pending) throw notWaiting();
    pending.settle({ answer: response, answeredBy: by });
  }

  /** Stop a call (its stream then ends with what was recorded). Throws `not-found` for an unknown stream. */
  cancel(streamId: string): void {
    const call = this.#calls.get(streamId);
    if (!call) throw noSuchStream();
    call.cancel();
  }

  /** True when this process holds the stream (else another instance may). */
  holds(streamId: string): boolean {
    return this.#calls.has(streamId);
  }
}

/** An answer for the server when the person did not (or could not) answer. */
function dropped(answeredBy: ServerRequestAnswerer, why: string): AskOutcome {
  return { answer: { error: { code: NO_ANSWER, message: `No answer from the user: ${why}.` } }, answeredBy };
}

export function notWaiting(): ProxyError {
  return new ProxyError(
    "not-found",
    "This server request is no longer waiting for an answer (it was answered, timed out, or its call ended).",
    "Send the request again to get a new one.",
  );
}

export function noSuchStream(): ProxyError {
  return new ProxyError("not-found", "No call with this stream id is running (it ended, or it ran on an instance that is gone).");
}
