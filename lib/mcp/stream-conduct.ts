import { META_LOG_LEVEL } from "./meta.ts";
import { isObject } from "../json/guards.ts";

/** The `_meta` of a sent request, or an empty object. */
function metaOf(sent: Record<string, unknown>): Record<string, unknown> {
  const params = sent.params;
  return isObject(params) && isObject(params._meta) ? params._meta : {};
}

/**
 * What a 2026-07-28 server did wrong on the stream of one request, in words a person can act on. Checked only on the
 * modern era: legacy servers may legitimately send requests (sampling, elicitation) and session-level logs there.
 *
 * - a JSON-RPC *request* on a response stream (streamable-http §Receiving Messages; the modern way is input_required),
 * - `notifications/message` on a request that set no `io.modelcontextprotocol/logLevel`, or on a listen stream
 *   (logging.mdx: logs only for requests that asked, on their own response stream),
 * - `notifications/progress` for a token the request did not send (progress.mdx: the token identifies the request).
 */
export function streamConduct(sent: Record<string, unknown>, messages: readonly Record<string, unknown>[]): string[] {
  const meta = metaOf(sent);
  const askedLogs = typeof meta[META_LOG_LEVEL] === "string";
  const listen = sent.method === "subscriptions/listen";
  const token = meta.progressToken;
  const out: string[] = [];
  const seen = new Set<string>();
  const report = (key: string, text: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    out.push(text);
  };
  for (const m of messages) {
    const method = typeof m.method === "string" ? m.method : undefined;
    if (!method) continue;
    if ("id" in m) {
      report(
        `request:${method}`,
        `The server sent a JSON-RPC request (${method}) on the response stream. 2026-07-28 servers must not: they ask for input with an input_required result. Toolscope did not answer it.`,
      );
    } else if (method === "notifications/message" && listen) {
      report(
        "log:listen",
        "The server sent a log message (notifications/message) on a subscriptions/listen stream. Log messages belong only on the response stream of the request that asked for a level.",
      );
    } else if (method === "notifications/message" && !askedLogs) {
      report(
        "log:unasked",
        `The server sent a log message (notifications/message) although the request set no ${META_LOG_LEVEL} in _meta. 2026-07-28 servers must send logs only when a request asks for a level.`,
      );
    } else if (method === "notifications/progress" && isObject(m.params) && m.params.progressToken !== token) {
      report(
        "progress:token",
        `The server sent progress for token ${JSON.stringify(m.params.progressToken)}, which this request did not send${token === undefined ? " (it sent no progressToken at all)" : ` (it sent ${JSON.stringify(token)})`}.`,
      );
    }
  }
  return out;
}
