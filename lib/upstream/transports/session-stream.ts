import type { ConnectionDescriptor, UserHeaders } from "@/lib/mcp/contract";
import { SseParser } from "@/lib/mcp/sse-parser";
import type { Target } from "../egress/targets.ts";

/** Times the session's GET stream is asked for again after a 409 (the previous call's stream not yet released). */
const SESSION_STREAM_RETRIES = 4;

/** The session a GET stream belongs to. */
export interface SessionStreamOptions {
  target: Target;
  descriptor: Pick<ConnectionDescriptor, "protocolVersion" | "sessionId">;
  userHeaders: UserHeaders;
}

/**
 * The legacy session's GET stream, read by us: its messages are the session's (shared). A 405 (the server offers no
 * such stream) or 409 (another client holds it) leaves the exchange as it is; the record shows the answer.
 * Resolves with whether the stream is being read.
 */
export async function openSessionStream(
  opts: SessionStreamOptions,
  fetchFn: typeof fetch,
  signal: AbortSignal,
  deliver: (m: Record<string, unknown>) => void,
): Promise<boolean> {
  const headers: Record<string, string> = {
    ...opts.userHeaders,
    accept: "text/event-stream",
    "mcp-session-id": opts.descriptor.sessionId!,
    "mcp-protocol-version": opts.descriptor.protocolVersion,
  };
  let res: Response;
  for (let attempt = 1; ; attempt++) {
    try {
      res = await fetchFn(opts.target.url, { method: "GET", headers, signal });
    } catch {
      return false; // recorded; the exchange itself goes on
    }
    // 409: the server still holds the stream the previous call closed a moment ago; it lets go within milliseconds.
    if (res.status !== 409 || attempt > SESSION_STREAM_RETRIES || signal.aborted) break;
    await res.body?.cancel().catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 25 * attempt));
  }
  if (!res.ok || !res.body || !(res.headers.get("content-type") ?? "").includes("text/event-stream")) {
    await res.body?.cancel().catch(() => undefined);
    return false;
  }
  const parser = new SseParser((e) => {
    if ((e.event ?? "message") !== "message") return;
    try {
      const m = JSON.parse(e.data) as unknown;
      if (typeof m === "object" && m !== null && !Array.isArray(m)) deliver(m as Record<string, unknown>);
    } catch {
      // not JSON: shown in the record, nothing to act on
    }
  });
  const decoder = new TextDecoder();
  void (async () => {
    const reader = res.body!.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        parser.push(decoder.decode(value, { stream: true }));
      }
    } catch {
      // closed by us at the end of the exchange, or broken: either way the exchange decides its own fate
    }
  })();
  return true;
}
