/**
 * Requests a server sends the client in the middle of a call (2025-era MCP: `elicitation/create`,
 * `sampling/createMessage`, `roots/list`), as the playground handles them: the streamed /api/rpc announces each one
 * (`server-request`), the user answers in a dialog, the answer goes to POST /api/rpc/answer, and the stream says when
 * a request stopped waiting (`server-request-ended`). Pure functions: the queue of waiting requests, the JSON-RPC
 * answer for a user's choice, and the texts the playground shows. The answers themselves (ElicitResult,
 * CreateMessageResult, ListRootsResult) are built by ./mrtr.ts, as for MRTR input requests.
 */
import type { ProxyErrorBody, RpcAnswerRequest, RpcStreamEvent, ServerRequestAnswerer, ServerRequestRecord } from "../../mcp/contract.ts";
import { parseInputRequest, type InputRequest } from "./mrtr.ts";
import { isObject } from "../../json/guards.ts";

export type ServerRequestEvent = Extract<RpcStreamEvent, { type: "server-request" }>;
export type ServerRequestEndedEvent = Extract<RpcStreamEvent, { type: "server-request-ended" }>;

/** After pressing Cancel, how long the playground keeps reading the stream for the proxy's final event before it closes the connection itself. */
export const CANCEL_FALLBACK_MS = 3000;

/** A server request waiting for the user's answer. */
export interface ServerAsk {
  streamId: string;
  pendingId: string;
  /** The JSON-RPC method (`?` when the server sent none). */
  method: string;
  /** The request as the server sent it. */
  request: Record<string, unknown>;
  /** The request as the dialog shows it (keyed by `pendingId`). */
  input: InputRequest;
  timeoutMs: number;
  /** When it arrived, and when the proxy stops waiting (ms since the epoch, this browser's clock). */
  receivedAt: number;
  deadline: number;
}

/** The method of a JSON-RPC message, or `?`. */
export function requestMethod(request: unknown): string {
  return isObject(request) && typeof request.method === "string" ? request.method : "?";
}

/** The waiting request announced by a `server-request` event that arrived at `now`. */
export function toServerAsk(event: ServerRequestEvent, now: number): ServerAsk {
  const timeoutMs = Number.isFinite(event.timeoutMs) && event.timeoutMs > 0 ? event.timeoutMs : 0;
  return {
    streamId: event.streamId,
    pendingId: event.pendingId,
    method: requestMethod(event.request),
    request: event.request,
    input: parseInputRequest(event.pendingId, event.request),
    timeoutMs,
    receivedAt: now,
    deadline: now + timeoutMs,
  };
}

/** The queue with `ask` at its end (an announcement repeated for the same pending id is ignored). */
export function enqueueAsk(queue: readonly ServerAsk[], ask: ServerAsk): ServerAsk[] {
  return queue.some((a) => a.pendingId === ask.pendingId) ? [...queue] : [...queue, ask];
}

/** The queue without the request `pendingId`, and that request when it was there. */
export function removeAsk(queue: readonly ServerAsk[], pendingId: string): { queue: ServerAsk[]; removed?: ServerAsk } {
  const removed = queue.find((a) => a.pendingId === pendingId);
  return { queue: queue.filter((a) => a.pendingId !== pendingId), ...(removed ? { removed } : {}) };
}

/**
 * The JSON-RPC errors the playground answers with when it gives no result:
 * - the user left the request unanswered (or pressed Escape on a sampling or roots request): -1, the code the spec's
 *   own examples use for a user's refusal (client/sampling "User rejected sampling request");
 * - a method the playground cannot answer at all: -32601 Method not found (the client does not implement it);
 * - a method it knows with params it cannot use (e.g. a URL elicitation without a url): -32602 Invalid params.
 * An elicitation is never refused this way: its dialog answers `decline` or `cancel`, which are results.
 */
export const USER_DECLINED_ERROR = { code: -1, message: "The user declined to answer" } as const;
const KNOWN_METHODS = new Set(["elicitation/create", "sampling/createMessage", "roots/list"]);

/** The answer body for the user's choice: `result` (from ./mrtr.ts's builders), or null for "leave unanswered". */
export function answerResponse(ask: ServerAsk, result: Record<string, unknown> | null): RpcAnswerRequest["response"] {
  if (ask.input.kind === "unknown") {
    return KNOWN_METHODS.has(ask.method)
      ? { error: { code: -32602, message: `Invalid params: ${ask.input.reason}` } }
      : { error: { code: -32601, message: `Method not found: the Toolscope playground cannot answer ${ask.method}` } };
  }
  if (result === null) return { error: { ...USER_DECLINED_ERROR } };
  return { result };
}

/** The POST /api/rpc/answer body for the user's choice. */
export function answerRequest(ask: ServerAsk, result: Record<string, unknown> | null): RpcAnswerRequest {
  return { streamId: ask.streamId, pendingId: ask.pendingId, response: answerResponse(ask, result) };
}

/** A duration for people: `3 s`, `1.5 s`, `450 ms`, `2 min`, `2 min 30 s`. */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return "0 s";
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 10_000 && ms % 1000 !== 0) return `${(Math.round(ms / 100) / 10).toString()} s`;
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  return s % 60 ? `${Math.floor(s / 60)} min ${s % 60} s` : `${s / 60} min`;
}

/** The time left to answer, as a countdown: `42 s`, `4:05`; `0 s` once it is up. */
export function countdownText(msLeft: number): string {
  const s = Math.max(0, Math.ceil(msLeft / 1000));
  if (s < 60) return `${s} s`;
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/**
 * What to tell the user when a request stopped waiting without their answer from this page: timed out, withdrawn
 * because the call ended, answered by the proxy, or answered from elsewhere. Undefined when there is nothing to say
 * (the request was no longer in the queue: the user answered it here, and that answer's fate is told separately).
 */
export function endedNotice(
  ended: Pick<ServerRequestEndedEvent, "answeredBy" | "note">,
  ask: Pick<ServerAsk, "method" | "timeoutMs"> | undefined,
): string | undefined {
  if (!ask) return undefined;
  const what = `the server's ${ask.method} request`;
  const note = ended.note ? ` ${ended.note.trim()}` : "";
  switch (ended.answeredBy) {
    case "timeout":
      // The proxy's note says the same (no answer within the limit, an error sent): not repeated.
      return `The server's request (${ask.method}) timed out after ${formatDuration(ask.timeoutMs)}; the server got an error.`;
    case "cancelled":
      return `The call ended before you answered ${what}; it was withdrawn.${note}`;
    case "proxy":
      return `Toolscope answered ${what} itself.${note}`;
    case "user":
      return `${capitalize(what)} was answered from elsewhere (another tab or a script).${note}`;
  }
}

/** What to tell the user when posting their answer failed: too late (404), or not delivered. */
export function answerFailedNotice(method: string, error: { status: number; body: ProxyErrorBody["error"] }): string {
  if (error.status === 404 || error.body.kind === "not-found")
    return `Your answer to the server's ${method} request came too late: it had stopped waiting, so the server did not get it.`;
  return `Your answer to the server's ${method} request could not be delivered: ${error.body.message}`;
}

function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** Who answered, as the result view says it. */
export const ANSWERED_BY_LABEL: Record<ServerRequestAnswerer, string> = {
  user: "answered by you",
  proxy: "answered by Toolscope",
  prepared: "answered from the collection",
  timeout: "timed out",
  cancelled: "withdrawn: the call ended",
};

/** A one-line summary of the answer a server request got: `accept (3 fields)`, `decline`, `2 roots`, `reply as toolscope-human`, `error -1 …`. */
export function answerSummary(answer: Record<string, unknown>): string {
  if (isObject(answer.error)) {
    const code = typeof answer.error.code === "number" ? ` ${answer.error.code}` : "";
    const message = typeof answer.error.message === "string" ? `: ${answer.error.message}` : "";
    return `error${code}${message}`;
  }
  const result = isObject(answer.result) ? answer.result : undefined;
  if (!result) return "no answer";
  if (typeof result.action === "string") {
    const fields = isObject(result.content) ? Object.keys(result.content).length : 0;
    return result.action === "accept" && fields ? `${result.action} (${fields} field${fields === 1 ? "" : "s"})` : result.action;
  }
  if (Array.isArray(result.roots)) return `${result.roots.length} root${result.roots.length === 1 ? "" : "s"}`;
  if (result.role === "assistant" || isObject(result.content))
    return `reply${typeof result.model === "string" ? ` as ${result.model}` : ""}`;
  if (Object.keys(result).length === 0) return "empty result";
  return "result";
}

/** The timing of a server request within its call: `at 120 ms, answered 3.2 s later`. */
export function requestTiming(record: Pick<ServerRequestRecord, "atMs" | "answeredAtMs">): string {
  return `at ${formatDuration(record.atMs)}, answered ${formatDuration(Math.max(0, record.answeredAtMs - record.atMs))} later`;
}

/** The proxy error a cancelled call is recorded with when the proxy's own final event did not come (no exchanges known). */
export function cancelledLocally(reason: "before-stream" | "no-confirmation"): ProxyErrorBody["error"] {
  return reason === "before-stream"
    ? {
        kind: "bad-request",
        message: "The request was cancelled before Toolscope's server started the call.",
        hint: "The server may not have received it.",
      }
    : {
        kind: "bad-request",
        message: `The request was cancelled. Toolscope's server did not confirm within ${formatDuration(CANCEL_FALLBACK_MS)}, so the playground closed the connection; the HTTP exchanges of this call are not known.`,
        hint: "The server may still have finished the call.",
      };
}
