/**
 * Concurrent callers asking for the same key share one run: the first starts it, the others wait for its outcome,
 * and the key is free again as soon as it settles (success or failure). Nothing is kept afterwards; whatever should
 * outlive the run is the run's own business (a cache it fills).
 */
export class SingleFlight<T> {
  readonly #running = new Map<string, Promise<T>>();

  run(key: string, start: () => Promise<T>): Promise<T> {
    const running = this.#running.get(key);
    if (running) return running;
    const started = start().finally(() => this.#running.delete(key));
    this.#running.set(key, started);
    return started;
  }

  /** Runs in flight now (tests, diagnostics). */
  get size(): number {
    return this.#running.size;
  }
}
