"use client";

import { useEffect, useState } from "react";
import { countdownText, formatDuration, type ServerAsk } from "@/lib/playground/server-requests/server-requests";
import { visibleText } from "@/lib/mcp/visible-text";
import { escapeAnswer, InputDialogFrame, InputRequestStep, KIND_TITLE, SKIP, type StepAnswer } from "./InputRequestStep";

interface Props {
  /** The server's requests waiting for an answer, oldest first: the first is shown, the others wait their turn. */
  asks: ServerAsk[];
  /** Who is asking: the server's name and URL (the spec requires the client to say). */
  serverLabel: string;
  /** The user's answer: a result, or null to leave it unanswered (the server gets an error). */
  onAnswer: (ask: ServerAsk, result: Record<string, unknown> | null) => void;
  /** Stop the whole call (the proxy withdraws the waiting requests). */
  onCancelCall: () => void;
}

/**
 * A request the server sent in the middle of a call (elicitation, sampling, roots): the call is paused until the user
 * answers here or the proxy stops waiting (the countdown). Escape cancels an elicitation (its `cancel` action) and
 * leaves other requests unanswered.
 */
export function ServerRequestDialog({ asks, serverLabel, onAnswer, onCancelCall }: Props) {
  const ask = asks[0];
  const answer = (a: StepAnswer) => {
    if (ask) onAnswer(ask, a === SKIP ? null : a);
  };
  return (
    <InputDialogFrame
      testId="server-request-dialog"
      labelledBy="server-request-title"
      stepKey={ask?.pendingId ?? ""}
      onEscape={() => ask && answer(escapeAnswer(ask.input))}
    >
      {ask && (
        <div className="max-h-[85vh] overflow-auto p-4" data-pending-id={ask.pendingId} data-received-at={ask.receivedAt}>
          <div className="mb-3 flex flex-wrap items-baseline gap-x-2 text-xs text-zinc-500">
            <span>
              Request from{" "}
              <strong className="text-zinc-800 dark:text-zinc-200" data-testid="server-request-server">
                {visibleText(serverLabel)}
              </strong>
            </span>
            {asks.length > 1 && <span data-testid="server-request-queue">· {asks.length - 1} more waiting</span>}
            <code className="ml-auto rounded bg-zinc-100 px-1 dark:bg-zinc-800" title="The JSON-RPC method the server sent">
              {visibleText(ask.method)}
            </code>
          </div>
          <h2 id="server-request-title" className="mb-2 text-base font-semibold">
            {KIND_TITLE[ask.input.kind]}
          </h2>
          <Paused ask={ask} />
          <InputRequestStep
            key={ask.pendingId}
            request={ask.input}
            onAnswer={answer}
            unknownNote="The playground answers it with an error, so the server can go on."
          />
          <div className="mt-3 flex flex-wrap items-center gap-2 border-t border-zinc-200 pt-2 dark:border-zinc-800">
            <p className="text-xs text-zinc-500">
              {ask.input.kind === "elicit-form" || ask.input.kind === "elicit-url"
                ? "Escape cancels this request."
                : "Leaving it unanswered (or Escape) sends the server an error."}
            </p>
            <button
              type="button"
              onClick={onCancelCall}
              className="ml-auto text-xs text-zinc-500 underline hover:text-zinc-800 dark:hover:text-zinc-200"
              data-testid="server-request-cancel-call"
            >
              Cancel the call
            </button>
          </div>
        </div>
      )}
    </InputDialogFrame>
  );
}

/** "The call is paused" with the time left before the proxy stops waiting (and answers the server with an error). */
function Paused({ ask }: { ask: ServerAsk }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 500);
    return () => clearInterval(timer);
  }, []);
  const left = ask.deadline - now;
  const until = new Date(ask.deadline).toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit", second: "2-digit" });
  return (
    <div
      className="mb-3 flex flex-wrap items-center gap-x-3 gap-y-1 rounded-md border border-sky-200 bg-sky-50 px-3 py-2 text-xs text-sky-900 dark:border-sky-900 dark:bg-sky-950/40 dark:text-sky-100"
      data-testid="server-request-paused"
    >
      <span>The call is paused, waiting for your answer.</span>
      {ask.timeoutMs > 0 && (
        <span
          className="ml-auto font-medium tabular-nums"
          data-testid="server-request-deadline"
          title={`Toolscope waits ${formatDuration(ask.timeoutMs)} in all, until ${until}; then the server gets an error.`}
        >
          {left > 0 ? `${countdownText(left)} left` : "Time is up"}{" "}
          <span className="font-normal text-sky-700 dark:text-sky-300">(until {until})</span>
        </span>
      )}
    </div>
  );
}
