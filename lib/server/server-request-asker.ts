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

/**
 * The asker for a call no person can answer (a call that was not streamed, a docs page, a list walk): `ping` is
 * answered, anything else gets an immediate JSON-RPC error saying why, and `refused` keeps the methods for a note.
 */
export function refusingAsker(why: string): ServerRequestAsker & { refused: string[] } {
  const refused: string[] = [];
  return {
    refused,
    async ask(request) {
      const ping = pingAnswer(request);
      if (ping) return ping;
      refused.push(String(request.method));
      return {
        answer: { error: { code: METHOD_NOT_FOUND, message: `Toolscope cannot answer ${String(request.method)} here: ${why}` } },
        answeredBy: "proxy",
      };
    },
  };
}

/** The note for a response whose call refused server requests: what happened and how to answer them instead. */
export function refusedNote(methods: readonly string[]): string | undefined {
  if (methods.length === 0) return undefined;
  const unique = [...new Set(methods)].join(", ");
  return `The server asked the client ${unique} during this call. Nobody could answer in a call that is not streamed, so Toolscope answered with a JSON-RPC error at once. Send the request with Accept: text/event-stream (the playground does) to answer it yourself.`;
}
