import { ProxyError } from "../errors/proxy-error.ts";

/**
 * How long an upstream exchange may take once its response is an open event stream (SSE). Until the stream opens the
 * plain request timeout applies; after that a stream that keeps sending something (events, progress, keep-alive
 * comments) may run up to `maxMs`, and one on which nothing arrives for `idleMs` is cut.
 */
export interface StreamLimits {
  idleMs: number;
  /** Counted from when the stream opens. */
  maxMs: number;
  /** The setting behind `maxMs`, named in the error. */
  maxSetting: "TOOLSCOPE_STREAM_MAX_MS" | "TOOLSCOPE_LISTEN_MAX_MS";
  /** What is streaming, for messages: "The streamed response", "The subscriptions/listen stream". */
  subject: string;
  /** What to do when `maxMs` is reached. */
  maxHint: string;
}

/** The limits for one message sent upstream: a listen stream is open-ended by design and gets its own maximum. */
export function streamLimitsFor(method: unknown, cfg: { streamIdleMs: number; streamMaxMs: number; listenMaxMs: number }): StreamLimits {
  if (method === "subscriptions/listen") {
    return {
      idleMs: cfg.streamIdleMs,
      maxMs: cfg.listenMaxMs,
      maxSetting: "TOOLSCOPE_LISTEN_MAX_MS",
      subject: "The subscriptions/listen stream",
      maxHint: "Open it again to keep listening; Toolscope's live docs do that on their own.",
    };
  }
  return {
    idleMs: cfg.streamIdleMs,
    maxMs: cfg.streamMaxMs,
    maxSetting: "TOOLSCOPE_STREAM_MAX_MS",
    subject: "The streamed response",
    maxHint: "A call that keeps sending progress may run this long; raise TOOLSCOPE_STREAM_MAX_MS when running Toolscope locally.",
  };
}

/** Which limit ran out. */
export type Expiry = "request" | "idle" | "max";

/** The error for a stream cut by its idle or maximum limit (the request timeout has its own). */
export function streamCutError(expiry: "idle" | "max", limits: StreamLimits): ProxyError {
  if (expiry === "idle") {
    return new ProxyError(
      "upstream-timeout",
      `${limits.subject} went silent: nothing arrived (no event, no keep-alive comment) for ${limits.idleMs} ms (TOOLSCOPE_STREAM_IDLE_MS), so Toolscope closed it.`,
      'The server may be hung. A server that works quietly for longer should send progress notifications or SSE comments (": keep-alive"); when running Toolscope locally you can raise TOOLSCOPE_STREAM_IDLE_MS.',
    );
  }
  return new ProxyError(
    "upstream-timeout",
    `${limits.subject} reached its longest allowed duration (${limits.maxMs} ms, ${limits.maxSetting}).`,
    limits.maxHint,
  );
}

export interface Timers {
  set(run: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

const realTimers: Timers = {
  set: (run, ms) => setTimeout(run, ms),
  clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export interface ExchangeWatchdog {
  /** The response is an event stream: the request timeout gives way to the stream limits (when there are any). */
  streamOpened(): void;
  /** Bytes arrived on the response. */
  activity(): void;
  /** The exchange is over: no limit fires any more. */
  stop(): void;
  /**
   * A person is being asked (a server request waits for the browser): the request timeout and the idle limit do not
   * run until every hold is released, then they start over. The stream maximum keeps running: it bounds the whole call.
   * The server request has its own deadline (TOOLSCOPE_SERVER_REQUEST_TIMEOUT_MS). Returns the release.
   */
  hold(): () => void;
}

/**
 * Watches one exchange's limits and calls `onExpire` once, with the first limit that runs out. Without `stream`
 * limits the request timeout bounds the whole exchange, streamed or not (list pages, connects).
 */
export function watchExchange(opts: {
  timeoutMs: number;
  stream?: StreamLimits;
  onExpire: (expiry: Expiry) => void;
  timers?: Timers;
}): ExchangeWatchdog {
  const timers = opts.timers ?? realTimers;
  let done = false;
  let idle: unknown;
  let max: unknown;
  const expire = (expiry: Expiry) => {
    if (done) return;
    stop();
    opts.onExpire(expiry);
  };
  let request: unknown = timers.set(() => expire("request"), opts.timeoutMs);
  let holds = 0;
  let opened = false;
  /** The limit that applies now: the request timeout until the stream opens, then the idle limit. */
  const arm = () => {
    if (opened && opts.stream) idle = timers.set(() => expire("idle"), opts.stream.idleMs);
    else request = timers.set(() => expire("request"), opts.timeoutMs);
  };
  const disarm = () => {
    for (const handle of [request, idle]) if (handle !== undefined) timers.clear(handle);
    request = idle = undefined;
  };
  const stop = () => {
    done = true;
    for (const handle of [request, idle, max]) if (handle !== undefined) timers.clear(handle);
    request = idle = max = undefined;
  };
  return {
    streamOpened() {
      if (done || !opts.stream || max !== undefined) return;
      opened = true;
      disarm();
      max = timers.set(() => expire("max"), opts.stream.maxMs);
      if (holds === 0) arm();
    },
    activity() {
      if (done || idle === undefined || !opts.stream) return;
      timers.clear(idle);
      idle = timers.set(() => expire("idle"), opts.stream.idleMs);
    },
    stop,
    hold() {
      if (done) return () => undefined;
      if (holds++ === 0) disarm();
      let released = false;
      return () => {
        if (released || done) return;
        released = true;
        if (--holds === 0) arm();
      };
    },
  };
}
