import type { ServerRequestRecord } from "@/lib/mcp/contract";
import { logLines } from "@/lib/playground/notifications";
import { ANSWERED_BY_LABEL, answerSummary, requestMethod, requestTiming } from "@/lib/playground/server-requests/server-requests";
import { ReadOnlyJson } from "../results/ReadOnlyJson";

const ANSWERER_TONE: Record<ServerRequestRecord["answeredBy"], string> = {
  user: "text-emerald-700 dark:text-emerald-300",
  proxy: "text-zinc-600 dark:text-zinc-400",
  prepared: "text-sky-700 dark:text-sky-300",
  timeout: "text-amber-700 dark:text-amber-300",
  cancelled: "text-amber-700 dark:text-amber-300",
};

/** The requests the server sent during a call (elicitation, sampling, roots, ping): what it asked, the answer it got, who answered, when. */
export function ServerRequestsLog({ records }: { records: readonly ServerRequestRecord[] }) {
  if (records.length === 0) return null;
  return (
    <section
      className="rounded-md border border-zinc-200 p-2 text-xs dark:border-zinc-800"
      data-testid="server-requests"
      aria-label="Requests from the server during this call"
    >
      <p className="font-semibold">The server asked {records.length === 1 ? "one thing" : `${records.length} things`} during this call</p>
      <ol className="mt-1 space-y-1">
        {records.map((r, i) => (
          <li key={i} data-testid="server-request-record" data-answered-by={r.answeredBy}>
            <details className="rounded border border-zinc-100 px-2 py-1 dark:border-zinc-800/80">
              <summary className="cursor-pointer">
                <code className="font-semibold">{requestMethod(r.request)}</code>
                <span className={`ml-2 ${ANSWERER_TONE[r.answeredBy]}`}>{ANSWERED_BY_LABEL[r.answeredBy]}</span>
                <span className="ml-2" data-testid="server-request-answer">
                  {answerSummary(r.answer)}
                </span>
                <span className="ml-2 text-zinc-500">{requestTiming(r)}</span>
              </summary>
              <div className="mt-2 grid gap-2 min-[700px]:grid-cols-2">
                <div className="min-w-0">
                  <p className="mb-0.5 font-medium">Request</p>
                  <ReadOnlyJson value={r.request} label="The server's request" className="max-h-64" />
                </div>
                <div className="min-w-0">
                  <p className="mb-0.5 font-medium">Answer sent to the server</p>
                  <ReadOnlyJson value={r.answer} label="The answer sent to the server" className="max-h-64" />
                </div>
              </div>
            </details>
          </li>
        ))}
      </ol>
    </section>
  );
}

/** HTTP+SSE: messages on the session's event stream that belong to no request (log messages, list changes), kept apart from this call's. */
export function SessionMessagesLog({ messages }: { messages: readonly Record<string, unknown>[] }) {
  if (messages.length === 0) return null;
  return (
    <details className="rounded-md border border-zinc-200 p-2 text-xs dark:border-zinc-800" data-testid="session-notifications">
      <summary className="cursor-pointer font-medium">
        {messages.length} message{messages.length === 1 ? "" : "s"} on the session&apos;s stream outside this call
      </summary>
      <p className="mt-1 text-zinc-500">
        The HTTP+SSE event stream carried these during the call; they belong to no request (log messages, list changes).
      </p>
      <ul className="mt-1 space-y-0.5 font-mono">
        {messages.map((m, i) => {
          const log = logLines([m])[0];
          return (
            <li key={i} className="break-all">
              <span className="font-semibold">{requestMethod(m)}</span>
              {log && (
                <span className="ml-2 text-zinc-600 dark:text-zinc-400">
                  {log.level}: {log.text}
                </span>
              )}
            </li>
          );
        })}
      </ul>
      <ReadOnlyJson value={messages} label="Session stream messages" className="mt-2 max-h-64" />
    </details>
  );
}
