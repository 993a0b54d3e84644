/**
 * The one thing a runner needs from a transport: send a JSON-RPC message, get its response. The command line sends
 * through the MCP client core (lib/cli/live-server.ts), the playground through /api/rpc; the runner never knows which.
 */
export interface SendResult {
  /** The JSON-RPC response; null when the server sent none (a notification, a dropped stream). */
  response: Record<string, unknown> | null;
  /** The round trip, in ms. */
  durationMs: number;
  /** The wire records of the exchange, when the transport keeps them (the playground shows them). */
  exchanges?: unknown[];
}

export interface SendOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  /**
   * The call's prepared answers, for requests the server sends mid-call on the response stream (elicitation,
   * sampling, roots): a transport that can answer them looks each up with `preparedAnswer` (answer-rounds.ts).
   */
  answers?: Readonly<Record<string, unknown>>;
}

export type Sender = (message: Record<string, unknown>, options: SendOptions) => Promise<SendResult>;
