import "server-only";
import { processSingleton } from "../../runtime/process-singleton.ts";
import { rateWords } from "./abuse-limits.ts";
import type { Config, RateClass } from "../platform/config.ts";
import { errorResponse, ProxyError } from "@/lib/upstream/policy";

/** What a refused caller is told to wait: long enough for a burst to drain, short enough that nobody gives up. */
export const ADMISSION_RETRY_AFTER_SECONDS = 2;

/** The setting that caps class `c` in flight on one instance. */
export function inflightSetting(c: RateClass): string {
  return `TOOLSCOPE_MAX_INFLIGHT_${c.toUpperCase()}`;
}

/** This instance is working on as many requests of a class as it takes: 503 with Retry-After, never a wait. */
export class AdmissionError extends ProxyError {
  constructor(
    readonly routeClass: RateClass,
    max: number,
  ) {
    super(
      "unavailable",
      `This Toolscope instance is working on ${max} ${rateWords(routeClass)} already, the most it takes at once (${inflightSetting(routeClass)}).`,
      `Try again in ${ADMISSION_RETRY_AFTER_SECONDS} s. An operator can raise ${inflightSetting(routeClass)} or run more instances.`,
      undefined,
      ADMISSION_RETRY_AFTER_SECONDS,
    );
    this.name = "AdmissionError";
  }
}

/**
 * Admission control for one instance: a bound on the requests of each route class in flight, whoever sent them
 * (the per-client caps are abuse-limits.ts's, and only when limits are on). A request over the bound is refused at
 * once: under load the instance sheds what it cannot finish, so no connection waits in silence behind others and
 * one class (long tool-list walks) cannot starve another. Health checks never pass through here.
 */
export class Admission {
  readonly #inFlight = new Map<RateClass, number>();

  constructor(readonly max: Readonly<Record<RateClass, number>>) {}

  /** Admit one request of class `c`, or throw an AdmissionError; the returned function lets it out (idempotent). */
  admit(c: RateClass): () => void {
    const now = this.#inFlight.get(c) ?? 0;
    if (now >= this.max[c]) throw new AdmissionError(c, this.max[c]);
    this.#inFlight.set(c, now + 1);
    let left = false;
    return () => {
      if (left) return;
      left = true;
      this.#inFlight.set(c, (this.#inFlight.get(c) ?? 1) - 1);
    };
  }

  /** Requests of class `c` in flight, for tests and health. */
  inFlight(c: RateClass): number {
    return this.#inFlight.get(c) ?? 0;
  }
}

/** The process's admission control (shared by the request guard and the route handlers, whatever the bundle). */
export function admission(cfg: Pick<Config, "maxInflight">): Admission {
  return processSingleton("admission", () => new Admission(cfg.maxInflight));
}

/** Answer with `work` admitted under class `c`; a full instance answers 503 with Retry-After at once. */
export async function admitted(cfg: Pick<Config, "maxInflight">, c: RateClass, work: () => Promise<Response>): Promise<Response> {
  let leave: () => void;
  try {
    leave = admission(cfg).admit(c);
  } catch (err) {
    if (err instanceof AdmissionError) return errorResponse(err);
    throw err;
  }
  try {
    return await work();
  } finally {
    leave();
  }
}
