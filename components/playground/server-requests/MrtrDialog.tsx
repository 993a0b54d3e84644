"use client";

import { useState } from "react";
import type { InputRequest } from "@/lib/playground/server-requests/mrtr";
import { visibleText } from "@/lib/mcp/visible-text";
import { escapeAnswer, InputDialogFrame, InputRequestStep, KIND_TITLE, SKIP, type StepAnswer } from "./InputRequestStep";

interface Props {
  requests: InputRequest[];
  /** Who is asking: the server's name and URL, shown in the title (the spec requires it). */
  serverLabel: string;
  round: number;
  maxRounds: number;
  /** The server asks exactly what it asked in the round before. */
  repeated: boolean;
  /** All answers, keyed like the requests (unanswered ones left out). */
  onDone: (inputResponses: Record<string, unknown>) => void;
  /** Stop without retrying. */
  onAbandon: () => void;
  /** The input a running task waits for (tasks/update), not an MRTR round: no round count, no retry. */
  forTask?: boolean;
}

/**
 * The MRTR dialog: one page per input request of an `input_required` result (form, URL, sampling, roots),
 * then the call is retried with all the answers. Escape cancels the current request (an elicitation's
 * `cancel` action; other requests are left unanswered).
 */
export function MrtrDialog({ requests, serverLabel, round, maxRounds, repeated, onDone, onAbandon, forTask = false }: Props) {
  const [index, setIndex] = useState(0);
  const [answers, setAnswers] = useState<Record<string, unknown>>({});
  const request = requests[index];

  const record = (answer: StepAnswer) => {
    const next = { ...answers };
    if (answer !== SKIP) next[request.key] = answer;
    if (index + 1 >= requests.length) {
      onDone(next);
      return;
    }
    setAnswers(next);
    setIndex(index + 1);
  };

  return (
    <InputDialogFrame
      testId="mrtr-dialog"
      labelledBy="mrtr-title"
      stepKey={String(index)}
      onEscape={() => (request ? record(escapeAnswer(request)) : onAbandon())}
    >
      {request && (
        <div className="max-h-[85vh] overflow-auto p-4">
          <div className="mb-3 flex flex-wrap items-baseline gap-x-2 text-xs text-zinc-500">
            <span>
              Input requested by{" "}
              <strong className="text-zinc-800 dark:text-zinc-200" data-testid="mrtr-server">
                {visibleText(serverLabel)}
              </strong>
            </span>
            <span>{forTask ? "· the task waits for this answer" : `· round ${round} of at most ${maxRounds}`}</span>
            {requests.length > 1 && (
              <span>
                · request {index + 1} of {requests.length}
              </span>
            )}
            <code className="ml-auto rounded bg-zinc-100 px-1 dark:bg-zinc-800" title="The server's key for this request">
              {visibleText(request.key)}
            </code>
          </div>
          <h2 id="mrtr-title" className="mb-2 text-base font-semibold">
            {KIND_TITLE[request.kind]}
          </h2>
          {repeated && index === 0 && (
            <p
              className="mb-2 rounded-md bg-amber-50 px-2 py-1 text-xs text-amber-900 dark:bg-amber-950/50 dark:text-amber-200"
              data-testid="mrtr-repeated"
            >
              The server asked exactly this in the previous round: your last answer may not have satisfied it.
            </p>
          )}
          <InputRequestStep
            key={`${index}:${request.key}`}
            request={request}
            onAnswer={record}
            unknownNote={
              forTask ? "It is left out of the answers sent to the task." : "It is left out of the retry; the server may ask again."
            }
          />
          <div className="mt-3 border-t border-zinc-200 pt-2 text-right dark:border-zinc-800">
            <button
              type="button"
              onClick={onAbandon}
              className="text-xs text-zinc-500 underline hover:text-zinc-800 dark:hover:text-zinc-200"
              data-testid="mrtr-abandon"
            >
              {forTask ? "Stop following the task (it keeps waiting)" : "Stop without retrying"}
            </button>
          </div>
        </div>
      )}
    </InputDialogFrame>
  );
}
