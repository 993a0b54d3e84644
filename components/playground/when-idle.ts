/**
 * Run `f` when the browser is next idle, or after `timeoutMs` at the latest (a page that is never idle still gets it);
 * Safari has no requestIdleCallback: a short timer. Returns a cancel function.
 */
export function whenIdle(f: () => void, timeoutMs: number): () => void {
  if (typeof requestIdleCallback === "function") {
    const id = requestIdleCallback(f, { timeout: timeoutMs });
    return () => cancelIdleCallback(id);
  }
  const timer = setTimeout(f, Math.min(200, timeoutMs));
  return () => clearTimeout(timer);
}
