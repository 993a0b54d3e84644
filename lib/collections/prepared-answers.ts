/**
 * A collection call's prepared answers (`answers` in the file): the one lookup the runner's MRTR rounds, the
 * playground's Tests panel and `toolscope test` use for what a server asks mid-call.
 */
import { isObject } from "../json/guards.ts";

/**
 * The prepared answer to a request the server makes — an MRTR input request by its key, or any request by its method
 * (so one `"elicitation/create"` answer serves both an MRTR round and a request sent mid-call on a stream).
 */
export function preparedAnswer(answers: Readonly<Record<string, unknown>>, method: string, key?: string): unknown {
  if (key !== undefined && Object.hasOwn(answers, key)) return answers[key];
  return Object.hasOwn(answers, method) ? answers[method] : undefined;
}

/**
 * The prepared result for a JSON-RPC request the server sent mid-call (by its method), or undefined when there is none
 * usable: a JSON-RPC result is an object, so anything else is left for the person (or the unattended answer).
 */
export function preparedServerAnswer(answers: Readonly<Record<string, unknown>>, method: string): Record<string, unknown> | undefined {
  const answer = preparedAnswer(answers, method);
  return isObject(answer) ? answer : undefined;
}
