"use client";

import { useEffect, useRef, useState } from "react";
import type { ConnectionDescriptor, Tool, UserHeaders } from "@/lib/mcp/contract";
import { AppPanel } from "../apps/AppPanel";
import { HttpExchangeView } from "../wire/HttpExchangeView";
import { ProgressLog } from "./ProgressLog";
import { ProxyErrorBanner } from "@/components/ui/ProxyErrorBanner";
import { RawJsonView } from "./RawJsonView";
import { RenderedResult } from "./RenderedResult";
import { ResultTabs } from "./ResultTabs";
import { ServerRequestsLog, SessionMessagesLog } from "../server-requests/ServerRequestsLog";
import { roundSummary } from "./round-summary";
import { TaskCard } from "./TaskCard";
import type { Exchange, Round } from "../useExchangeRunner";

interface Props {
  exchange: Exchange;
  tools: Tool[];
  /** Notifications of the round in flight, streamed in. */
  live?: readonly Record<string, unknown>[];
  /** Put a request in the editor (and send it), e.g. the next page of a list. */
  onNextPage?: (text: string, send: boolean) => void;
  /** A request the server sent mid-call waits for the user (the call in flight is paused). */
  serverAsking?: boolean;
  /** Send refused the editor's text since this exchange: it is the previous send's result, marked and dimmed as such. */
  previous?: boolean;
  /** The connection a tool's MCP App talks to its server through (no app is shown without it). */
  app?: AppConnection;
}

interface AppConnection {
  connection: ConnectionDescriptor;
  headers: UserHeaders;
}

function answerSummary(answered: Record<string, unknown> | undefined): string | undefined {
  if (!answered) return undefined;
  const parts = Object.entries(answered).map(([k, v]) => {
    const action = typeof v === "object" && v !== null && "action" in v ? String((v as { action: unknown }).action) : "answered";
    return `${k}: ${action}`;
  });
  return parts.length ? parts.join(", ") : "no answers (requestState only)";
}

/** When SplitPane stacks the editor and the result (its `min-[900px]` breakpoint). */
const STACKED_QUERY = "(max-width: 899.98px)";

const STATE_LABEL: Partial<Record<Exchange["state"], string>> = {
  running: "Sending…",
  asking: "Waiting for your input…",
  cancelling: "Cancelling: Toolscope is stopping the call…",
  cancelled: "Cancelled.",
};

/** What crossed the wire, for the tab's name: a stdio process speaks no HTTP (issue 26: its tab said "HTTP"). */
function wireName(exchanges: readonly { transport?: string }[]): "stdio" | "HTTP" {
  return exchanges.length > 0 && exchanges.every((x) => x.transport === "stdio") ? "stdio" : "HTTP";
}

/** One exchange: its rounds (MRTR) as a group, and the chosen round's answer as Rendered / JSON / HTTP. */
export function ExchangeView({ exchange, tools, live = [], onNextPage, serverAsking = false, previous = false, app }: Props) {
  const [picked, setPicked] = useState<number | null>(null);
  const box = useRef<HTMLDivElement>(null);
  // Stacked panes (narrow screens, SplitPane below 900 px): the result starts far below the editor, preview and
  // settings, so it is brought into view when a Send starts (the view is keyed by its exchange) and again when it ends
  // (at the start there may be too little below to scroll to). Side by side it is in view already: nothing scrolls.
  const settled = !["running", "asking", "cancelling"].includes(exchange.state);
  useEffect(() => {
    if (!window.matchMedia(STACKED_QUERY).matches) return;
    const reduced = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    box.current?.scrollIntoView({ block: "start", behavior: reduced ? "auto" : "smooth" });
  }, [settled]);
  const rounds = exchange.rounds;
  const round = rounds.find((r) => r.n === picked) ?? rounds.at(-1);
  // A request is in flight: sending, paused on a server's request, or being cancelled.
  const inFlight = exchange.state === "running" || exchange.state === "cancelling" || (exchange.state === "asking" && serverAsking);
  const label =
    exchange.state === "asking" && serverAsking
      ? "The server asked you something: the call is paused until you answer."
      : exchange.task && exchange.state === "running"
        ? "Following the task: polling it as often as the server asks…"
        : exchange.task && exchange.state === "cancelling"
          ? "Cancelling: tasks/cancel asks the server to stop the task…"
          : STATE_LABEL[exchange.state];
  return (
    <div
      ref={box}
      className="scroll-mt-4 space-y-3"
      data-testid="exchange"
      data-state={exchange.state}
      data-rounds={rounds.length}
      data-previous={previous || undefined}
    >
      {previous && (
        <p
          className="rounded-md border border-zinc-300 bg-zinc-100 px-3 py-2 text-sm font-medium text-zinc-700 dark:border-zinc-700 dark:bg-zinc-800 dark:text-zinc-200"
          data-testid="previous-result"
        >
          Result of the previous send, {new Date(exchange.startedAt).toLocaleTimeString()}: the editor&apos;s request was not sent.
        </p>
      )}
      <div className={`space-y-3 ${previous ? "opacity-60" : ""}`}>
        {(rounds.length > 1 || (exchange.state === "asking" && rounds.length > 0)) && (
          <ol className="flex flex-wrap gap-1" aria-label="Rounds of this exchange" data-testid="mrtr-rounds">
            {shownRounds(rounds, round).map((r, i) =>
              typeof r === "number" ? (
                <li key={`elided-${i}`} className="self-center px-1 text-xs text-zinc-500" data-testid="rounds-elided">
                  … {r} more
                </li>
              ) : (
                <li key={r.n}>
                  <button
                    type="button"
                    onClick={() => setPicked(r.n)}
                    aria-current={r === round ? "true" : undefined}
                    data-testid="mrtr-round"
                    className={`rounded-md border px-2 py-1 text-left text-xs ${r === round ? "border-accent-600 bg-accent-50 dark:bg-accent-700/20" : "border-zinc-200 hover:bg-zinc-50 dark:border-zinc-800 dark:hover:bg-zinc-900"}`}
                  >
                    <span className="font-semibold">Round {r.n}</span> · {roundSummary(r)}
                    {r.answered && <span className="block text-zinc-500">answered {answerSummary(r.answered)}</span>}
                  </button>
                </li>
              ),
            )}
          </ol>
        )}
        {label && (
          <p className="text-sm text-zinc-500" role="status" data-testid="exchange-status">
            {label}
          </p>
        )}
        {exchange.task && <TaskCard task={exchange.task} running={!settled} />}
        {exchange.note && (
          <p
            role="alert"
            data-testid="exchange-note"
            className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950/40 dark:text-amber-200"
          >
            {exchange.note}
          </p>
        )}
        {exchange.notices?.map((notice, i) => (
          <p
            key={i}
            role="status"
            data-testid="server-request-notice"
            className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950/40 dark:text-amber-200"
          >
            {notice}
          </p>
        ))}
        {inFlight && <ProgressLog notifications={live} running={exchange.state === "running"} />}
        {round && (
          <RoundView
            round={round}
            tools={tools}
            onNextPage={exchange.state === "done" ? onNextPage : undefined}
            cancelled={exchange.state === "cancelled" && round === rounds.at(-1)}
            app={exchange.state === "done" && !previous ? app : undefined}
            appKey={`${exchange.id}-${round.n}`}
            taskTool={exchange.task ? calledTool(rounds[0], tools) : undefined}
          />
        )}
      </div>
    </div>
  );
}

/**
 * The rounds to list: all of them up to a dozen; a long task's polls are elided in the middle (a number: how many),
 * keeping the first two, the last eight and the one on view.
 */
function shownRounds(rounds: Round[], picked: Round | undefined): (Round | number)[] {
  if (rounds.length <= 12) return rounds;
  const keep = new Set([...rounds.slice(0, 2), ...rounds.slice(-8), ...(picked ? [picked] : [])]);
  const out: (Round | number)[] = [];
  for (const r of rounds) {
    if (keep.has(r)) out.push(r);
    else if (typeof out.at(-1) === "number") (out[out.length - 1] as number)++;
    else out.push(1);
  }
  return out;
}

/** The tool a round's tools/call names, when the list has it. */
function calledTool(round: Round | undefined, tools: Tool[]): Tool | undefined {
  const name = (round?.message.params as { name?: unknown } | undefined)?.name;
  return round?.message.method === "tools/call" ? tools.find((t) => t.name === name) : undefined;
}

/** `cancelled`: the user cancelled this round's call, so its "error" is the proxy confirming that, not a failure. */
function RoundView({
  round,
  tools,
  onNextPage,
  cancelled = false,
  app,
  appKey,
  taskTool,
}: {
  app?: AppConnection;
  appKey?: string;
  /** The tool whose call became a task: a task round's result is that tool's (its outputSchema checks it). */
  taskTool?: Tool;
  round: Round;
  tools: Tool[];
  onNextPage?: Props["onNextPage"];
  cancelled?: boolean;
}) {
  if (round.outcome.kind === "proxy-error") {
    // A call that went out and then stopped (e.g. cancelled) still carries what crossed the wire.
    const error = round.outcome.error;
    const exchanges = error.exchanges ?? [];
    return (
      <>
        {cancelled ? (
          <div
            role="status"
            data-testid="cancelled-note"
            className="rounded-md border border-zinc-300 bg-zinc-50 p-3 text-sm dark:border-zinc-700 dark:bg-zinc-900"
          >
            <p className="font-semibold">You cancelled the call</p>
            <p className="mt-1">{error.message}</p>
            {error.hint && <p className="mt-1 text-zinc-600 dark:text-zinc-400">{error.hint}</p>}
          </div>
        ) : (
          <ProxyErrorBanner error={error} />
        )}
        {exchanges.length > 0 && (
          <ResultTabs
            testId="result-tabs"
            tabs={[
              {
                id: "http",
                label: `${wireName(exchanges)} · ${exchanges.length} exchange${exchanges.length === 1 ? "" : "s"}`,
                content: <HttpExchangeView exchanges={exchanges} added={[]} />,
              },
            ]}
          />
        )}
      </>
    );
  }
  const rpc = round.outcome.rpc;
  const method = typeof round.message.method === "string" ? round.message.method : undefined;
  const tool = method === "tools/call" ? calledTool(round, tools) : taskTool;
  return (
    <>
      <ProgressLog notifications={rpc.notifications} />
      {rpc.serverRequests && <ServerRequestsLog records={rpc.serverRequests} />}
      {rpc.sessionNotifications && <SessionMessagesLog messages={rpc.sessionNotifications} />}
      {rpc.notes?.map((note, i) => (
        <p
          key={i}
          role="note"
          className="mb-2 rounded-md border border-sky-300 p-2 text-xs text-sky-900 dark:border-sky-800 dark:text-sky-200"
        >
          {note}
        </p>
      ))}
      {rpc.protocolWarnings && rpc.protocolWarnings.length > 0 && (
        <div
          role="note"
          className="mb-2 rounded-md border border-amber-300 p-2 text-xs text-amber-900 dark:border-amber-800 dark:text-amber-200"
          data-testid="protocol-warnings"
        >
          <p className="font-semibold">The server broke a 2026-07-28 rule on this stream</p>
          <ul className="mt-1 list-disc space-y-0.5 pl-4">
            {rpc.protocolWarnings.map((w) => (
              <li key={w}>{w}</li>
            ))}
          </ul>
        </div>
      )}
      {rpc.stderr && rpc.stderr.length > 0 && (
        <details className="mb-2 rounded-md border border-zinc-200 p-2 text-xs dark:border-zinc-800" data-testid="stderr" open>
          <summary className="cursor-pointer font-medium">
            Server stderr ({rpc.stderr.length} new line{rpc.stderr.length === 1 ? "" : "s"})
          </summary>
          <pre className="mt-1 max-h-48 overflow-auto whitespace-pre-wrap font-mono">{rpc.stderr.join("\n")}</pre>
        </details>
      )}
      {app && rpc.response && (
        <AppPanel
          key={appKey}
          connection={app.connection}
          headers={app.headers}
          tools={tools}
          message={round.message}
          response={rpc.response}
        />
      )}
      <ResultTabs
        testId="result-tabs"
        tabs={[
          {
            id: "rendered",
            label: "Rendered",
            content: rpc.response ? (
              <RenderedResult
                response={rpc.response}
                method={method}
                tool={tool}
                outputValidation={rpc.outputValidation}
                onNextPage={onNextPage}
              />
            ) : (
              <p className="text-sm">No response body (notification accepted).</p>
            ),
          },
          { id: "json", label: "JSON", content: <RawJsonView value={rpc.response} fileName={`response-round-${round.n}.json`} /> },
          {
            id: "http",
            label: `${wireName(rpc.exchanges)} · ${Math.round(rpc.durationMs)} ms`,
            content: <HttpExchangeView exchanges={rpc.exchanges} added={rpc.added} />,
          },
        ]}
      />
    </>
  );
}
