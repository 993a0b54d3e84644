/**
 * The MRTR retry loop for callers that need only the final answer (an MCP App's calls): send, and while the server
 * answers `input_required`, ask the person and send the retry, within the round limit. The playground's editor runs
 * its own loop (useExchangeRunner) because it records and streams every round; both decide with `nextStep` and build
 * retries with `buildRetryMessage`, so the rules are one.
 */
import { buildRetryMessage, MAX_MRTR_ROUNDS, nextStep, retryId, type InputRequest, type RoundRecord } from "./mrtr.ts";

/** What the person is asked in one round. */
export interface InputAsk {
  requests: InputRequest[];
  /** The round whose answer asked (1 for the first call). */
  round: number;
  repeated: boolean;
}

export interface MrtrRoundsOptions {
  /** Send one message; resolves with the JSON-RPC response (null when there was none). */
  send: (message: Record<string, unknown>) => Promise<Record<string, unknown> | null>;
  /** Ask the person; null when they closed the dialog. */
  ask: (ask: InputAsk) => Promise<Record<string, unknown> | null>;
  /** Told before each retry (an event list shows it). */
  onRetry?: (round: number, answered: Record<string, unknown>) => void;
  limit?: number;
}

/** Why an MRTR exchange ended without a final answer: the person closed the dialog, or a stop rule held. */
export class MrtrStopped extends Error {}

/** The final response to `original` after as many MRTR rounds as it takes (at most `limit`). */
export async function runMrtrRounds(original: Record<string, unknown>, opts: MrtrRoundsOptions): Promise<Record<string, unknown> | null> {
  const limit = opts.limit ?? MAX_MRTR_ROUNDS;
  const rounds: RoundRecord[] = [];
  const used = new Set<unknown>([original.id]);
  let current = original;
  for (let n = 1; ; n++) {
    const response = await opts.send(current);
    rounds.push({ message: current, response });
    const step = nextStep(rounds, limit);
    if (step.kind === "done") return response;
    if (step.kind === "stop") throw new MrtrStopped(step.reason);
    let inputResponses: Record<string, unknown> = {};
    if (step.kind === "ask") {
      const answers = await opts.ask({ requests: step.requests, round: n, repeated: step.repeated });
      if (answers === null) throw new MrtrStopped("The person closed the input dialog, so the call was not retried.");
      inputResponses = answers;
    }
    const id = retryId(original.id, n + 1, used);
    used.add(id);
    opts.onRetry?.(n + 1, inputResponses);
    current = buildRetryMessage(original, { inputResponses, requestState: step.requestState, id });
  }
}
