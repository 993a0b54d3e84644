/** The wire record: what crossed the wire for one request, as the exchange views show it. */

export interface SseEvent {
  /** Milliseconds since the request started. */
  atMs: number;
  event?: string;
  id?: string;
  data: string;
}

/**
 * One HTTP request/response pair as it crossed the wire (secrets masked).
 * On stdio (`transport: "stdio"`) there is no HTTP: `request.method` is `"STDIO"`, `request.url` is `stdio:<name>`,
 * the body is the line written to the process's stdin; `response.status` is 0 (`statusText` `"stdout"`), its body is
 * the response line read from stdout, and `sseEvents` (event `"stdout"`) hold the other stdout messages that arrived
 * for the request. Headers are always empty.
 */
export interface HttpExchange {
  /** Absent for HTTP. */
  transport?: "stdio";
  request: {
    method: string;
    url: string;
    headers: [string, string][];
    body?: string;
  };
  response?: {
    status: number;
    statusText: string;
    headers: [string, string][];
    /** The body when it was JSON or text (capped); SSE bodies are given as events instead. */
    body?: string;
    sseEvents: SseEvent[];
    /**
     * Set when the recorded events reached their size cap (the client still received every event): `count` events
     * arrived after it and were not recorded, and `bytes` of event data (UTF-8, a cut event's tail included) are missing.
     */
    sseEventsOmitted?: { count: number; bytes: number };
  };
  /** Set when the request failed before a response arrived. */
  error?: string;
  startedAt: string;
  durationMs: number;
}
