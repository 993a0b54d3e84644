/**
 * A call's MRTR rounds (`input_required`) answered from the call's prepared `answers`: by the input request's key,
 * else by its method ("elicitation/create"). The rules — when to retry, the round limit, loops, the retry message —
 * are the playground's own (lib/playground/server-requests/mrtr.ts), so a collection and the editor retry alike.
 * With no prepared answer for a request the call asks `ask` (the playground's runner: the person, in the MRTR
 * dialog); without one — the command line — it stops as "needs input".
 */
import { buildRetryMessage, MAX_MRTR_ROUNDS, nextStep, retryId, type RoundRecord } from "../playground/server-requests/mrtr.ts";
import type { InputRequest } from "../playground/server-requests/mrtr.ts";
import { preparedAnswer } from "./prepared-answers.ts";
import type { SendResult, Sender } from "./sender.ts";

/** Who answers what no prepared answer covers: answers keyed like the requests, or null when nobody answered. `signal`
 * aborts when the call ends (its timeout, a stop): the question must go away with it. */
export type AskInput = (requests: InputRequest[], signal: AbortSignal | undefined) => Promise<Record<string, unknown> | null>;

export type RoundsOutcome =
  | { ok: true; response: Record<string, unknown> | null; durationMs: number; rounds: number; exchanges: unknown[] }
  | { ok: false; reason: string; needsInput?: string[]; durationMs: number; rounds: number; exchanges: unknown[] };

/** Send `original`, and retry with prepared answers while the server asks for input. */
export async function sendWithAnswers(
  original: Record<string, unknown>,
  answers: Readonly<Record<string, unknown>>,
  send: Sender,
  options: { signal?: AbortSignal; timeoutMs?: number; limit?: number; ask?: AskInput } = {},
): Promise<RoundsOutcome> {
  const limit = options.limit ?? MAX_MRTR_ROUNDS;
  const rounds: RoundRecord[] = [];
  const used = new Set<unknown>([original.id]);
  const exchanges: unknown[] = [];
  let durationMs = 0;
  let current = original;
  for (let n = 1; ; n++) {
    const sent: SendResult = await send(current, { signal: options.signal, timeoutMs: options.timeoutMs, answers });
    durationMs += sent.durationMs;
    if (sent.exchanges) exchanges.push(...sent.exchanges);
    rounds.push({ message: current, response: sent.response });
    const step = nextStep(rounds, limit);
    if (step.kind === "done") return { ok: true, response: sent.response, durationMs, rounds: n, exchanges };
    if (step.kind === "stop") return { ok: false, reason: step.reason, durationMs, rounds: n, exchanges };
    const inputResponses: Record<string, unknown> = {};
    if (step.kind === "ask") {
      const unanswered: InputRequest[] = [];
      for (const request of step.requests) {
        const method = request.kind === "unknown" ? request.method : METHOD_OF[request.kind];
        const answer = preparedAnswer(answers, method, request.key);
        if (answer !== undefined) inputResponses[request.key] = answer;
        // A request the client cannot answer is left out of the retry, as the playground does.
        else if (request.kind !== "unknown") unanswered.push(request);
      }
      if (unanswered.length) {
        const given = options.ask ? await options.ask(unanswered, options.signal) : null;
        const keys = unanswered.map((r) => r.key);
        if (!given) {
          const reason = options.ask ? `needs input: ${keys.join(", ")} (not answered)` : `needs input: ${keys.join(", ")}`;
          return { ok: false, reason, needsInput: keys, durationMs, rounds: n, exchanges };
        }
        for (const key of keys) if (Object.hasOwn(given, key)) inputResponses[key] = given[key];
      }
    }
    const id = retryId(original.id, n + 1, used);
    used.add(id);
    current = buildRetryMessage(original, { inputResponses, requestState: step.requestState, id });
  }
}

const METHOD_OF = {
  "elicit-form": "elicitation/create",
  "elicit-url": "elicitation/create",
  sampling: "sampling/createMessage",
  roots: "roots/list",
} as const;
