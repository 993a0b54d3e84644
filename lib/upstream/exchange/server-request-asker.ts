import type { ServerRequestAnswerer } from "@/lib/mcp/contract";

/** The body of a JSON-RPC answer to a server request, without `jsonrpc` and `id` (the exchange adds the server's id). */
export type AnswerBody = { result: Record<string, unknown> } | { error: { code: number; message: string; data?: unknown } };

export interface AskOutcome {
  answer: AnswerBody;
  answeredBy: ServerRequestAnswerer;
}

/**
 * Who answers a server-to-client request during one exchange. `ask` always settles with an answer for the server
 * (never rejects for a missing person): the server must never wait for an answer no one will give.
 */
export interface ServerRequestAsker {
  ask(request: Record<string, unknown>, signal: AbortSignal): Promise<AskOutcome>;
}

/** The abort reason an asker sees when the server itself withdrew its request (notifications/cancelled). */
export const WITHDRAWN = Symbol("withdrawn by the server");

/** JSON-RPC's "method not found": what a client says about a request it does not handle. */
export const METHOD_NOT_FOUND = -32601;
/** The code we answer with when a person was there but did not answer (timeout, cancelled call). */
export const NO_ANSWER = -32001;

/** `ping` needs no person: every asker answers it at once. */
export function pingAnswer(request: Record<string, unknown>): AskOutcome | undefined {
  return request.method === "ping" ? { answer: { result: {} }, answeredBy: "proxy" } : undefined;
}

/** The code of a sampling request nobody reviewed: the spec's example code for a user who rejects one. */
export const NOT_REVIEWED = -1;

/**
 * The asker for a call no person can answer (a call that was not streamed, a docs page, a list walk, a server asking
 * between calls). Toolscope declares elicitation, sampling and roots on every connection (so docs list the tools an
 * interactive client sees, issue 26), so each gets the answer a client with nobody at the keyboard gives, at once:
 * `roots/list` an error saying roots are answered during a streamed call (not the empty list: a server may keep the
 * first answer for its whole session, as server-everything does, and a stdio process is shared with the playground,
 * so "none" would stand in for the person's roots; `betweenCalls` words it for a server asking between calls),
 * `elicitation/create` `cancel` (dismissed without a choice),
 * `sampling/createMessage` the error a client gives for a request its user did not approve; `ping` is answered; a
 * method no client capability covers is "method not found". `refused` keeps the methods nobody answered, for a note.
 */
export function unattendedAsker(
  why: string,
  { betweenCalls = false }: { betweenCalls?: boolean } = {},
): ServerRequestAsker & { refused: string[] } {
  const refused: string[] = [];
  return {
    refused,
    async ask(request) {
      const ping = pingAnswer(request);
      if (ping) return ping;
      const method = String(request.method);
      // "No roots" would be a wrong answer a server keeps (server-everything caches the first one per session, and a
      // docs page's list walk may meet the question on the stdio process the playground uses): the person's roots are
      // in their browser. The error says when they are given.
      if (method === "roots/list") {
        refused.push(method);
        const message = betweenCalls
          ? `Toolscope cannot answer roots/list now: ${why}. It is answered during a call (the roots set in the playground); send notifications/roots/list_changed to be asked again.`
          : `Toolscope cannot answer roots/list here: ${why}. The roots set in the playground are given to a streamed call; send notifications/roots/list_changed to be asked again.`;
        return { answer: { error: { code: NO_ANSWER, message } }, answeredBy: "proxy" };
      }
      refused.push(method);
      if (method === "elicitation/create") return { answer: { result: { action: "cancel" } }, answeredBy: "proxy" };
      const reason = `Toolscope had no one to ask: ${why}`;
      if (method === "sampling/createMessage") return { answer: { error: { code: NOT_REVIEWED, message: reason } }, answeredBy: "proxy" };
      return { answer: { error: { code: METHOD_NOT_FOUND, message: `Toolscope cannot answer ${method}: ${why}` } }, answeredBy: "proxy" };
    },
  };
}

/** The note for a response whose call refused server requests: what happened and how to answer them instead. */
export function refusedNote(methods: readonly string[]): string | undefined {
  if (methods.length === 0) return undefined;
  const unique = [...new Set(methods)].join(", ");
  return `The server asked the client ${unique} during this call. Nobody could answer in a call that is not streamed, so Toolscope answered at once as a client with no one at the keyboard does (an elicitation cancelled, a sampling request refused, roots left for a streamed call). Send the request with Accept: text/event-stream (the playground does) to answer it yourself.`;
}
