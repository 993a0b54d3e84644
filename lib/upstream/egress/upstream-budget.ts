import { AsyncLocalStorage } from "node:async_hooks";
import { getHeapStatistics } from "node:v8";
import { processSingleton } from "../../runtime/process-singleton.ts";

/**
 * What one request to our API (or one docs page) may read from upstream servers, in bytes, summed over everything it
 * fetches: every page of a list walk, the connect that came first, icons, authorization-server metadata. The
 * per-response cap (TOOLSCOPE_MAX_RESPONSE_BYTES) alone let one list walk of 50 pages hold 449 MB (issue 25).
 *
 * Bytes are counted as they arrive, after decompression (what we hold, so a gzip bomb counts at its real size), at
 * the one place every outbound answer passes: the egress (./egress.ts). The scope is ambient (AsyncLocalStorage),
 * entered once per request by handleApi and the docs loader, so no fetch path can forget to pass it on.
 *
 * Every request's bytes are also taken from one pool per process (TOOLSCOPE_MAX_INFLIGHT_UPSTREAM_BYTES), given back
 * when the request ends: several large answers at once are refused with a 503 that says when to come back, instead
 * of growing the heap until the process dies.
 */
export interface BudgetLimits {
  /** TOOLSCOPE_MAX_CALL_UPSTREAM_BYTES */
  callBytes: number;
  /** TOOLSCOPE_MAX_INFLIGHT_UPSTREAM_BYTES (0: a share of the heap, see defaultPoolBytes). */
  poolBytes: number;
}

/** The process's pool: bytes held by requests in flight. */
export class BytePool {
  used = 0;
  constructor(readonly capacity: number) {}
  take(n: number): boolean {
    if (this.used + n > this.capacity) return false;
    this.used += n;
    return true;
  }
  give(n: number): void {
    this.used = Math.max(0, this.used - n);
  }
}

/** An eighth of the heap: what a request parses is held several times over (bytes, text, objects, our answer). */
export function defaultPoolBytes(): number {
  return Math.floor(getHeapStatistics().heap_size_limit / 8);
}

/** Seconds a refused caller is told to wait: large answers in flight finish within a request timeout or so. */
const POOL_RETRY_AFTER_SECONDS = 5;

/**
 * A request ran out of its budget (kind too-large) or found the pool empty (kind unavailable). Not a ProxyError:
 * the egress throws it and must not depend on the error module, which depends on it; classifyError maps it.
 */
export class UpstreamBudgetError extends Error {
  constructor(
    readonly kind: "too-large" | "unavailable",
    /** The setting's value that was reached, in bytes. */
    readonly limit: number,
    message: string,
    readonly hint: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = "UpstreamBudgetError";
  }

  /**
   * Recognised by name: the budget may be opened by one of Next's module graphs (the request guard preloading a docs
   * page) and its error classified in another, each with its own copy of this class (as BlockedTargetError).
   */
  static [Symbol.hasInstance](value: unknown): boolean {
    return value instanceof Error && value.name === "UpstreamBudgetError";
  }
}

function callBudgetExceeded(limit: number): UpstreamBudgetError {
  return new UpstreamBudgetError(
    "too-large",
    limit,
    `Toolscope read more than ${limit} bytes from the server for this one request (TOOLSCOPE_MAX_CALL_UPSTREAM_BYTES, summed over every page and answer).`,
    "The server sends more than one request may read: make its answers smaller (shorter descriptions, fewer or smaller pages), or raise TOOLSCOPE_MAX_CALL_UPSTREAM_BYTES when you run Toolscope yourself.",
  );
}

function poolExhausted(capacity: number): UpstreamBudgetError {
  return new UpstreamBudgetError(
    "unavailable",
    capacity,
    `Toolscope is busy: requests in flight hold ${capacity} bytes of upstream answers, the most this instance holds at once (TOOLSCOPE_MAX_INFLIGHT_UPSTREAM_BYTES).`,
    `Send the request again in ${POOL_RETRY_AFTER_SECONDS} seconds.`,
    POOL_RETRY_AFTER_SECONDS,
  );
}

/** One request's account: bytes read so far, all of them also taken from the pool until `close()`. */
export class UpstreamBudget {
  private read = 0;
  private held = 0;
  private closed = false;
  constructor(
    readonly limit: number,
    private readonly pool: BytePool,
  ) {}

  get bytesRead(): number {
    return this.read;
  }

  /** Count `n` more bytes; throws an UpstreamBudgetError (the reader stops and cancels the body). */
  charge(n: number): void {
    this.read += n;
    if (this.read > this.limit) throw callBudgetExceeded(this.limit);
    // A stream still read after its request ended (a listen relay winding down) holds nothing of ours.
    if (this.closed) return;
    if (!this.pool.take(n)) throw poolExhausted(this.pool.capacity);
    this.held += n;
  }

  /** The request is over: what it held goes back to the pool. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.pool.give(this.held);
    this.held = 0;
  }
}

function scope(): AsyncLocalStorage<UpstreamBudget> {
  // One per process: route handlers and pages are separate module graphs (see processSingleton).
  return processSingleton("upstream-budget.scope", () => new AsyncLocalStorage<UpstreamBudget>());
}

function pool(bytes: number): BytePool {
  const capacity = bytes > 0 ? bytes : defaultPoolBytes();
  return processSingleton(`upstream-budget.pool.${capacity}`, () => new BytePool(capacity));
}

/** The budget of the request this code runs for, if any (fetches outside a request, e.g. at start, have none). */
export function currentUpstreamBudget(): UpstreamBudget | undefined {
  return scope().getStore();
}

/**
 * Run `work` with a budget of its own; the budget is closed when `work` settles. An outer budget is kept (a docs
 * page's load runs the API's services inside its own scope): one request, one account.
 */
export async function withUpstreamBudget<T>(limits: BudgetLimits, work: () => Promise<T>): Promise<T> {
  if (currentUpstreamBudget()) return work();
  const budget = new UpstreamBudget(limits.callBytes, pool(limits.poolBytes));
  try {
    return await scope().run(budget, work);
  } finally {
    budget.close();
  }
}

/** The budget settings of the configuration. */
export function budgetLimits(cfg: { maxCallUpstreamBytes: number; maxInflightUpstreamBytes: number }): BudgetLimits {
  return { callBytes: cfg.maxCallUpstreamBytes, poolBytes: cfg.maxInflightUpstreamBytes };
}

/** A budget for a test or a caller that manages its own lifetime. */
export function runWithBudget<T>(budget: UpstreamBudget, work: () => T): T {
  return scope().run(budget, work);
}
