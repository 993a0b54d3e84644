/**
 * Multi round-trip requests (MCP 2026-07-28, basic/patterns/mrtr) on the client side, as pure functions:
 * read an `input_required` result into typed input requests, build the retry (the original message with
 * `params.inputResponses` keyed like the requests, `params.requestState` echoed byte for byte, a fresh id),
 * and decide what happens after each round (done, ask the user, retry at once, or stop: round limit, a loop,
 * a malformed result).
 */
import type { RootEntry } from "../../mcp/contract.ts";
import { classifyResponse } from "../../mcp/response-kind.ts";
import { isObject } from "../../json/guards.ts";
import { canonicalJson } from "../../json/canonical.ts";

/** Rounds (requests sent, the first included) before the playground stops retrying. */
export const MAX_MRTR_ROUNDS = 8;

/** One request of an `inputRequests` map, as the dialog shows it. `key` is the server's identifier. */
export type InputRequest =
  | { key: string; kind: "elicit-form"; message: string; requestedSchema: unknown }
  | { key: string; kind: "elicit-url"; message: string; url: string; elicitationId?: string }
  | { key: string; kind: "sampling"; params: Record<string, unknown> }
  | { key: string; kind: "roots" }
  /** Something the client cannot answer (an unknown method or malformed params); its key is left out of the retry. */
  | { key: string; kind: "unknown"; method: string; reason: string };

/** The typed requests of an `inputRequests` map, in the server's order. */
export function parseInputRequests(inputRequests: Record<string, unknown>): InputRequest[] {
  return Object.entries(inputRequests).map(([key, value]) => parseInputRequest(key, value));
}

/**
 * One request as the dialog shows it: an `inputRequests` entry (MRTR), or a JSON-RPC request the server sent
 * mid-call (elicitation, sampling, roots; `key` is then the proxy's pending id). Both carry `method` and `params`.
 */
export function parseInputRequest(key: string, value: unknown): InputRequest {
  if (!isObject(value)) return { key, kind: "unknown", method: "?", reason: "the request is not an object" };
  const method = typeof value.method === "string" ? value.method : "?";
  const params = isObject(value.params) ? value.params : {};
  if (method === "elicitation/create") {
    const message = typeof params.message === "string" ? params.message : "";
    if (params.mode === "url") {
      if (typeof params.url !== "string") return { key, kind: "unknown", method, reason: "a URL elicitation without a url" };
      return {
        key,
        kind: "elicit-url",
        message,
        url: params.url,
        ...(typeof params.elicitationId === "string" ? { elicitationId: params.elicitationId } : {}),
      };
    }
    if (params.mode !== undefined && params.mode !== "form")
      return { key, kind: "unknown", method, reason: `unknown elicitation mode ${JSON.stringify(params.mode)}` };
    return { key, kind: "elicit-form", message, requestedSchema: params.requestedSchema };
  }
  if (method === "sampling/createMessage") return { key, kind: "sampling", params };
  if (method === "roots/list") return { key, kind: "roots" };
  return { key, kind: "unknown", method, reason: `the playground cannot answer ${method}` };
}

/** The ElicitResult for a user action; `content` only when accepting a form. */
export function elicitResult(action: "accept" | "decline" | "cancel", content?: Record<string, unknown>): Record<string, unknown> {
  return action === "accept" && content !== undefined ? { action, content } : { action };
}

/** A CreateMessageResult carrying the reply the user typed in place of the model. */
export function samplingResult(text: string, model = SAMPLING_MODEL_NAME): Record<string, unknown> {
  return { role: "assistant", content: { type: "text", text }, model, stopReason: "endTurn" };
}

/** The model name a hand-written sampling reply declares. */
export const SAMPLING_MODEL_NAME = "toolscope-human";

export type { RootEntry };

/** A ListRootsResult from the user's configured roots. */
export function rootsResult(roots: readonly RootEntry[]): Record<string, unknown> {
  return { roots: roots.map((r) => (r.name ? { uri: r.uri, name: r.name } : { uri: r.uri })) };
}

/** Parse "uri [name]" lines (blank lines ignored); roots must be `file://` URIs for now (spec: client/roots). */
export function parseRootLines(text: string): { roots: RootEntry[]; errors: string[] } {
  const roots: RootEntry[] = [];
  const errors: string[] = [];
  text.split(/\r?\n/).forEach((line, i) => {
    const trimmed = line.trim();
    if (!trimmed) return;
    const [uri, ...rest] = trimmed.split(/\s+/);
    if (!/^file:\/\/\S*$/.test(uri)) {
      errors.push(`Line ${i + 1}: a root must be a file:// URI, e.g. file:///home/me/project.`);
      return;
    }
    roots.push(rest.length ? { uri, name: rest.join(" ") } : { uri });
  });
  return { roots, errors };
}

/** Text of the messages a sampling request asks the model to answer (text blocks only; others named by type). */
export function samplingPrompt(params: Record<string, unknown>): { role: string; text: string }[] {
  const messages = Array.isArray(params.messages) ? params.messages : [];
  return messages.filter(isObject).map((m) => {
    const blocks = Array.isArray(m.content) ? m.content : [m.content];
    const text = blocks
      .map((b) => (isObject(b) ? (b.type === "text" && typeof b.text === "string" ? b.text : `[${String(b.type ?? "content")}]`) : ""))
      .join("\n");
    return { role: typeof m.role === "string" ? m.role : "user", text };
  });
}

/**
 * The retry of `original`: same method and params, `inputResponses` when there are any, `requestState`
 * exactly as the server sent it (and none when it sent none), under `id`. Earlier `inputResponses` and
 * `requestState` in the original are replaced, never merged: each round answers only the latest requests.
 */
export function buildRetryMessage(
  original: Record<string, unknown>,
  answer: { inputResponses: Record<string, unknown>; requestState?: string; id: string | number },
): Record<string, unknown> {
  const params = isObject(original.params) ? { ...original.params } : {};
  delete params.inputResponses;
  delete params.requestState;
  if (Object.keys(answer.inputResponses).length > 0) params.inputResponses = answer.inputResponses;
  if (answer.requestState !== undefined) params.requestState = answer.requestState;
  return { ...original, id: answer.id, params };
}

/**
 * A fresh id for round `round` (2, 3…): a number after the original when it was a number, else
 * `<original>-r<round>`; never one already used in this exchange.
 */
export function retryId(originalId: unknown, round: number, used: ReadonlySet<unknown>): string | number {
  if (typeof originalId === "number" && Number.isFinite(originalId)) {
    let id = Math.floor(originalId) + round - 1;
    while (used.has(id)) id++;
    return id;
  }
  const base = typeof originalId === "string" ? originalId : "request";
  let id = `${base}-r${round}`;
  for (let n = 2; used.has(id); n++) id = `${base}-r${round}.${n}`;
  return id;
}

/** One round: what was sent (as the playground wrote it, before the proxy's stamping) and the answer. */
export interface RoundRecord {
  message: Record<string, unknown>;
  response: Record<string, unknown> | null;
}

export type NextStep =
  /** The last answer is final (a result, a tool error, a JSON-RPC error, or no response at all). */
  | { kind: "done" }
  /** Ask the user, then retry. `repeated` when the server asks exactly what it asked in the round before. */
  | { kind: "ask"; requests: InputRequest[]; requestState?: string; repeated: boolean }
  /** input_required with requestState only: the client may retry at once (spec: MAY retry immediately). */
  | { kind: "retry"; requestState: string }
  | { kind: "stop"; reason: string };

/** Stable JSON (sorted keys) for comparing messages and results (lib/json/canonical.ts). */
export { canonicalJson };

function withoutId(message: Record<string, unknown>): string {
  const { id: _id, ...rest } = message;
  return canonicalJson(rest);
}

/**
 * True when the last round repeats an earlier one: the same message (ids aside) got the same result.
 * The server is then deterministic on that input, so another identical retry cannot make progress.
 */
export function isLoop(rounds: readonly RoundRecord[]): boolean {
  const last = rounds.at(-1);
  if (!last || rounds.length < 2) return false;
  const key = withoutId(last.message) + canonicalJson(last.response?.result ?? last.response?.error ?? null);
  return rounds.slice(0, -1).some((r) => withoutId(r.message) + canonicalJson(r.response?.result ?? r.response?.error ?? null) === key);
}

/** What to do after the last of `rounds`. */
export function nextStep(rounds: readonly RoundRecord[], limit = MAX_MRTR_ROUNDS): NextStep {
  const last = rounds.at(-1);
  if (!last?.response) return { kind: "done" };
  const method = typeof last.message.method === "string" ? last.message.method : undefined;
  const kind = classifyResponse(last.response, method);
  if (kind.kind !== "input-required") return { kind: "done" };
  const result = last.response.result as Record<string, unknown>;
  const hasRequests = isObject(result.inputRequests) && Object.keys(result.inputRequests).length > 0;
  if (!hasRequests && kind.requestState === undefined) {
    return {
      kind: "stop",
      reason:
        "The server answered input_required with neither inputRequests nor requestState (it must send at least one), so there is nothing to retry with.",
    };
  }
  if (result.requestState !== undefined && typeof result.requestState !== "string") {
    return { kind: "stop", reason: "The server's requestState is not a string; a client must echo it exactly, so it cannot be retried." };
  }
  if (rounds.length >= limit)
    return { kind: "stop", reason: `Stopped after ${limit} rounds: the server still asks for input (round limit ${limit}).` };
  if (isLoop(rounds))
    return { kind: "stop", reason: "Stopped: the server gave the same answer to the same retry, so retrying again cannot make progress." };
  if (!hasRequests) return { kind: "retry", requestState: kind.requestState! };
  const previous = rounds.at(-2)?.response?.result as Record<string, unknown> | undefined;
  const repeated = previous !== undefined && canonicalJson(previous.inputRequests) === canonicalJson(result.inputRequests);
  return {
    kind: "ask",
    requests: parseInputRequests(kind.inputRequests),
    ...(kind.requestState !== undefined ? { requestState: kind.requestState } : {}),
    repeated,
  };
}
