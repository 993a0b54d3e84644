/**
 * Running a collection: its calls in order, each with the run's variables filled in, its MRTR rounds answered from its
 * prepared answers, its expectations evaluated and its captures taken for the calls after it. A call that cannot run
 * (a variable not set yet, no answer for an input request, a timeout, a transport failure) is an `error` of that call;
 * the run goes on unless `bail` says to stop at the first call that did not pass.
 */
import { isObject } from "../json/guards.ts";
import type { Tool } from "../mcp/contract.ts";
import { sendWithAnswers, type AskInput } from "./answer-rounds.ts";
import { evaluateExpectation, type ExpectationResult } from "./expectations.ts";
import type { Collection, CollectionCall, Expectation } from "./format.ts";
import { preview, valueAt } from "./pointer-value.ts";
import type { Sender } from "./sender.ts";
import { substitute } from "./substitute.ts";

export type CallStatus = "passed" | "failed" | "error" | "skipped";

export interface CallReport {
  name: string;
  status: CallStatus;
  durationMs: number;
  expectations: ExpectationResult[];
  /** The request as sent (variables filled in), when it got that far. */
  request?: Record<string, unknown>;
  response?: Record<string, unknown> | null;
  /** Why the call could not run, or was skipped. */
  error?: string;
  /** Variables this call set. */
  captured?: Record<string, unknown>;
  exchanges?: unknown[];
}

export interface RunSummary {
  total: number;
  passed: number;
  failed: number;
  errors: number;
  skipped: number;
  durationMs: number;
}

export interface RunReport {
  collection: string;
  calls: CallReport[];
  summary: RunSummary;
}

export interface RunOptions {
  send: Sender;
  /** The server's tools; by default walked with `send` (tools/list, every page), at most once per run. */
  listTools?: () => Promise<readonly Tool[]>;
  /** Only the calls whose name this matches. */
  grep?: RegExp;
  /** Stop at the first call that does not pass; the rest are reported as skipped. */
  bail?: boolean;
  /** A call's bound when it sets none, in ms. */
  timeoutMs?: number;
  /** Variables that replace the environment's (a runner's own settings). */
  variables?: Record<string, unknown>;
  /** Asked for the MRTR input a call's prepared answers do not cover (the playground's person); none: the call stops. */
  ask?: (call: CollectionCall) => AskInput | undefined;
  /** Told as each call starts (a live list marks it running). */
  onStart?: (call: CollectionCall, index: number) => void;
  /** Told as each call ends (progress lines, a live list). */
  onCall?: (report: CallReport, index: number) => void;
  /** Ends the run: the call in flight is aborted, the rest skipped. */
  signal?: AbortSignal;
  now?: () => number;
}

export const DEFAULT_CALL_TIMEOUT_MS = 30_000;
const MAX_TOOL_PAGES = 100;

/** Expectation kinds that need the server's tool list. */
const NEEDS_TOOLS = new Set<Expectation["kind"]>(["output-schema", "tool-listed"]);

/** Every page of tools/list through `send`. */
async function walkTools(send: Sender, timeoutMs: number): Promise<Tool[]> {
  const tools: Tool[] = [];
  let cursor: string | undefined;
  for (let page = 1; page <= MAX_TOOL_PAGES; page++) {
    const message = { jsonrpc: "2.0", id: `collection-tools-${page}`, method: "tools/list", ...(cursor ? { params: { cursor } } : {}) };
    const { response } = await send(message, { timeoutMs });
    const result = isObject(response?.result) ? response.result : undefined;
    if (!result) throw new Error(`tools/list answered ${preview(response?.error ?? response)}`);
    if (Array.isArray(result.tools)) tools.push(...(result.tools.filter(isObject) as unknown as Tool[]));
    const next = typeof result.nextCursor === "string" && result.nextCursor !== cursor ? result.nextCursor : undefined;
    if (!next) break;
    cursor = next;
  }
  return tools;
}

/** The parts of an expectation that hold placeholders: not a recorded answer or a schema, which are data. */
function fillable(e: Expectation): Record<string, unknown> {
  const { recorded: _recorded, schema: _schema, ...rest } = e as Expectation & { recorded?: unknown; schema?: unknown };
  return rest;
}

class Timeout extends Error {}

/** `work` bounded by `ms`: the signal aborts the send, and the result does not wait for a transport that ignores it. */
async function bounded<T>(ms: number, outer: AbortSignal | undefined, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const abort = () => controller.abort();
  outer?.addEventListener("abort", abort, { once: true });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new Timeout(`timed out after ${ms} ms`));
    }, ms);
  });
  try {
    return await Promise.race([work(controller.signal), timeout]);
  } finally {
    clearTimeout(timer);
    outer?.removeEventListener("abort", abort);
  }
}

export async function runCollection(collection: Collection, options: RunOptions): Promise<RunReport> {
  const now = options.now ?? (() => performance.now());
  const started = now();
  const defaultTimeout = options.timeoutMs ?? DEFAULT_CALL_TIMEOUT_MS;
  const variables = new Map<string, unknown>(Object.entries({ ...collection.environment?.variables, ...options.variables }));
  const selected = collection.calls.filter((c) => !options.grep || options.grep.test(c.name));
  // Which call sets which variable, for the message of a variable used before it is set.
  const setBy = new Map<string, CollectionCall>();
  for (const call of collection.calls) for (const name of Object.keys(call.capture ?? {})) if (!setBy.has(name)) setBy.set(name, call);

  let tools: Promise<readonly Tool[] | { error: string }> | undefined;
  const loadTools = () =>
    (tools ??= (options.listTools ? options.listTools() : walkTools(options.send, defaultTimeout)).catch((err: unknown) => ({
      error: (err as Error)?.message ?? String(err),
    })));

  const calls: CallReport[] = [];
  let stopped: string | undefined;
  for (const [index, call] of selected.entries()) {
    if (!stopped && options.signal?.aborted) stopped = "the run was stopped";
    const report = stopped
      ? { name: call.name, status: "skipped" as const, durationMs: 0, expectations: [], error: `not run: ${stopped}` }
      : (options.onStart?.(call, index), await runCall(call, index));
    calls.push(report);
    options.onCall?.(report, index);
    if (!stopped && options.bail && report.status !== "passed") stopped = `--bail after ${JSON.stringify(call.name)} ${report.status}`;
  }

  async function runCall(call: CollectionCall, index: number): Promise<CallReport> {
    const base = { name: call.name, durationMs: 0, expectations: [] as ExpectationResult[] };
    const filled = substitute({ request: call.request, answers: call.answers ?? {}, expect: call.expect.map(fillable) }, variables);
    if (!filled.ok) return { ...base, status: "error", error: missingMessage(filled.missing, call) };
    const expect = call.expect.map((e, i) => ({ ...e, ...filled.value.expect[i] }) as Expectation);
    const request: Record<string, unknown> = { jsonrpc: "2.0", ...filled.value.request };
    if (request.id === undefined) request.id = index + 1;
    const timeoutMs = call.timeoutMs ?? defaultTimeout;
    const callTools = expect.some((e) => NEEDS_TOOLS.has(e.kind)) ? await loadTools() : undefined;
    let rounds;
    try {
      rounds = await bounded(timeoutMs, options.signal, (signal) =>
        sendWithAnswers(request, filled.value.answers, options.send, { signal, timeoutMs, ask: options.ask?.(call) }),
      );
    } catch (err) {
      const message = err instanceof Timeout ? err.message : `the call failed: ${(err as Error)?.message ?? String(err)}`;
      return { ...base, status: "error", request, durationMs: err instanceof Timeout ? timeoutMs : 0, error: message };
    }
    const wire = rounds.exchanges.length ? { exchanges: rounds.exchanges } : {};
    if (!rounds.ok) return { ...base, status: "error", request, durationMs: rounds.durationMs, error: rounds.reason, ...wire };
    const outcome = { request, response: rounds.response, durationMs: rounds.durationMs, tools: callTools };
    const results = expect.map((e) => evaluateExpectation(e, outcome));
    const captured: Record<string, unknown> = {};
    for (const [name, pointer] of Object.entries(call.capture ?? {})) {
      const at = valueAt(rounds.response, pointer);
      if (at.found) {
        captured[name] = at.value;
        variables.set(name, at.value);
      } else results.push({ kind: "capture", label: `capture ${name} from ${pointer}`, pass: false, message: `nothing at ${pointer}` });
    }
    return {
      ...base,
      status: results.every((r) => r.pass) ? "passed" : "failed",
      durationMs: rounds.durationMs,
      expectations: results,
      request,
      response: rounds.response,
      ...(Object.keys(captured).length ? { captured } : {}),
      ...wire,
    };
  }

  function missingMessage(missing: string[], call: CollectionCall): string {
    const why = missing.map((name) => {
      const setter = setBy.get(name);
      if (!setter) return `{{${name}}} is not set by the environment or by any call's capture`;
      const ran = calls.find((c) => c.name === setter.name);
      if (setter === call) return `{{${name}}} is captured by this call itself, after it is sent`;
      if (!ran) {
        const left = !selected.includes(setter) ? "left out by the grep filter" : "after this one";
        return `{{${name}}} is captured by ${JSON.stringify(setter.name)}, ${left}`;
      }
      return `{{${name}}} was not captured: ${JSON.stringify(setter.name)} ${ran.status === "passed" ? "had nothing at its pointer" : ran.status}`;
    });
    return `variable used before it is set: ${why.join("; ")}`;
  }

  const count = (status: CallStatus) => calls.filter((c) => c.status === status).length;
  return {
    collection: collection.name,
    calls,
    summary: {
      total: calls.length,
      passed: count("passed"),
      failed: count("failed"),
      errors: count("error"),
      skipped: count("skipped"),
      durationMs: now() - started,
    },
  };
}
