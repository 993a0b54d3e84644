"use client";

import { useId, useMemo, useState } from "react";
import { expectationWarnings, proposeExpectations, type CallReport, type CollectionCall } from "@/lib/collections";
import type { Tool } from "@/lib/mcp/contract";
import { isObject } from "@/lib/json/guards";
import { defaultExpectation } from "@/lib/collections/editing/expectation-form";
import { responsePointers } from "@/lib/collections/editing/response-pointers";
import { CallExchange } from "./CallExchange";
import { ExpectationRow, fieldClass } from "./ExpectationRow";
import { useStableKeys } from "./useStableKeys";

interface Props {
  call: CollectionCall;
  index: number;
  count: number;
  report?: CallReport;
  /** The run is on this call now. */
  current: boolean;
  running: boolean;
  tools: readonly Tool[];
  toolList: string;
  onChange: (call: CollectionCall) => void;
  onRename: (name: string) => string | null;
  onRemove: () => void;
  onMove: (delta: -1 | 1) => void;
  onRun: () => void;
  onOpen: () => void;
}

const small =
  "rounded border border-zinc-300 px-1.5 py-0.5 text-xs hover:bg-zinc-50 disabled:opacity-50 dark:border-zinc-700 dark:hover:bg-zinc-800";

const STATUS_TONE: Record<string, string> = {
  passed: "bg-emerald-100 text-emerald-900 dark:bg-emerald-900/50 dark:text-emerald-100",
  failed: "bg-red-100 text-red-900 dark:bg-red-900/50 dark:text-red-100",
  error: "bg-amber-100 text-amber-900 dark:bg-amber-900/50 dark:text-amber-100",
  skipped: "bg-zinc-100 text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300",
  running: "bg-sky-100 text-sky-900 dark:bg-sky-900/50 dark:text-sky-100",
};

/** The tool a call calls, if it is a tools/call with a literal name. */
function calledTool(call: CollectionCall, tools: readonly Tool[]): Tool | undefined {
  const params = isObject(call.request.params) ? call.request.params : {};
  return call.request.method === "tools/call" && typeof params.name === "string" ? tools.find((t) => t.name === params.name) : undefined;
}

/** A JSON object field (a call's prepared answers), kept as typed until it parses. */
function AnswersField({ call, onChange, id }: { call: CollectionCall; onChange: (c: CollectionCall) => void; id: string }) {
  const [draft, setDraft] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const text = draft ?? (call.answers ? JSON.stringify(call.answers, null, 2) : "");
  return (
    <div className="space-y-0.5">
      <label htmlFor={id} className="text-[11px] text-zinc-500">
        Prepared answers (by input request key or by method, e.g. {`{"elicitation/create": {"action": "accept", "content": {…}}}`}); none:
        you are asked
      </label>
      <textarea
        id={id}
        className={`${fieldClass} w-full`}
        rows={Math.min(6, Math.max(1, text.split("\n").length))}
        value={text}
        spellCheck={false}
        aria-invalid={error ? true : undefined}
        data-testid="call-answers"
        onChange={(ev) => {
          const value = ev.target.value;
          if (!value.trim()) {
            const { answers: _a, ...rest } = call;
            setDraft(null);
            setError(null);
            return onChange(rest);
          }
          try {
            const parsed: unknown = JSON.parse(value);
            if (!isObject(parsed)) throw new Error("not an object");
            setDraft(null);
            setError(null);
            onChange({ ...call, answers: parsed });
          } catch {
            setDraft(value);
            setError("Prepared answers are a JSON object: a key per input request or method, its answer as the value.");
          }
        }}
      />
      {error && (
        <p role="alert" className="text-[11px] text-red-700 dark:text-red-300">
          {error}
        </p>
      )}
    </div>
  );
}

/**
 * One call of the collection: its status in the last run and the message of each failed expectation at a glance;
 * opened, its expectations to write (with "Expect this" from its last answer), captures, prepared answers, and the
 * exchange of its last run.
 */
export function CallCard({
  call,
  index,
  count,
  report,
  current,
  running,
  tools,
  toolList,
  onChange,
  onRename,
  onRemove,
  onMove,
  onRun,
  onOpen,
}: Props) {
  const [open, setOpen] = useState(false);
  const [showExchange, setShowExchange] = useState(false);
  const [renaming, setRenaming] = useState<string | null>(null);
  const [renameError, setRenameError] = useState<string | null>(null);
  const id = useId();
  const tool = calledTool(call, tools);
  // Recomputed when the call or its tool changes, not on every render of every card (a big schema, a big answer).
  const warnings = useMemo(() => expectationWarnings(call, tool), [call, tool]);
  const status = current ? "running" : report?.status;
  const answer = report?.response;
  // Completion for the pointer fields: only for an open card, whose fields are on screen.
  const pointers = useMemo(() => (open && answer ? responsePointers(answer) : []), [open, answer]);
  const pointerList = `${id}-pointers`;
  const failed = report?.expectations.filter((r) => !r.pass) ?? [];
  const toolName = isObject(call.request.params) && typeof call.request.params.name === "string" ? call.request.params.name : undefined;
  const hint = { tool: toolName, result: isObject(answer) ? answer.result : undefined };
  const setExpect = (expect: CollectionCall["expect"]) => onChange({ ...call, expect });
  const expectationKeys = useStableKeys(call.expect);
  return (
    <li
      className="rounded-md border border-zinc-200 dark:border-zinc-800"
      data-testid="collection-call"
      data-name={call.name}
      data-status={status ?? "not-run"}
    >
      <div className="flex flex-wrap items-center gap-x-2 gap-y-1 px-2 py-1.5">
        <button
          type="button"
          className="font-mono text-xs text-zinc-500"
          aria-expanded={open}
          aria-controls={`${id}-body`}
          aria-label={`${open ? "Close" : "Open"} ${call.name}`}
          onClick={() => setOpen(!open)}
          data-testid="call-toggle"
        >
          {open ? "▾" : "▸"}
        </button>
        <span className="font-mono text-[11px] text-zinc-500">{index + 1}.</span>
        {renaming !== null ? (
          <form
            className="flex min-w-0 flex-1 items-center gap-1"
            onSubmit={(ev) => {
              ev.preventDefault();
              const error = onRename(renaming);
              if (error) setRenameError(error);
              else {
                setRenaming(null);
                setRenameError(null);
              }
            }}
          >
            <input
              className={`${fieldClass} min-w-0 flex-1`}
              value={renaming}
              aria-label="Call name"
              autoFocus
              onChange={(ev) => setRenaming(ev.target.value)}
              onKeyDown={(ev) => {
                if (ev.key === "Escape") {
                  setRenaming(null);
                  setRenameError(null);
                }
              }}
              data-testid="call-name-input"
            />
            <button type="submit" className={small}>
              Rename
            </button>
          </form>
        ) : (
          <span className="min-w-0 flex-1 break-words text-sm font-medium" data-testid="call-name">
            {call.name}
          </span>
        )}
        {status && (
          <span className={`rounded px-1.5 text-[11px] font-semibold ${STATUS_TONE[status]}`} data-testid="call-status">
            {status}
            {report && status !== "running" && status !== "skipped" ? ` · ${Math.round(report.durationMs)} ms` : ""}
          </span>
        )}
        <span className="flex flex-wrap gap-1">
          <button type="button" className={small} onClick={onRun} disabled={running} data-testid="call-run" aria-label={`Run ${call.name}`}>
            Run
          </button>
          <button type="button" className={small} onClick={onOpen} data-testid="call-open" aria-label={`Open ${call.name} in the editor`}>
            Edit request
          </button>
          {report && (report.request || report.response !== undefined) && (
            <button
              type="button"
              className={small}
              aria-expanded={showExchange}
              onClick={() => setShowExchange(!showExchange)}
              data-testid="call-exchange"
              aria-label={`Exchange of ${call.name}`}
            >
              Exchange
            </button>
          )}
        </span>
      </div>
      {renameError && (
        <p role="alert" className="px-2 pb-1 text-xs text-red-700 dark:text-red-300">
          {renameError}
        </p>
      )}
      {report?.error && (
        <p className="px-2 pb-1 text-xs text-amber-800 dark:text-amber-300" data-testid="call-error">
          {report.error}
        </p>
      )}
      {!open && failed.length > 0 && (
        <ul className="px-2 pb-1.5 text-xs text-red-700 dark:text-red-300" data-testid="call-failures">
          {failed.map((f, i) => (
            <li key={i} className="break-words">
              ✗ {f.label}: {f.message}
            </li>
          ))}
        </ul>
      )}
      {!open && warnings.length > 0 && (
        <p className="px-2 pb-1.5 text-xs text-amber-800 dark:text-amber-300" data-testid="call-warning-count">
          ⚠ {warnings.length} warning{warnings.length === 1 ? "" : "s"}: open to see
        </p>
      )}
      {showExchange && report && (
        <div className="border-t border-zinc-200 p-2 dark:border-zinc-800">
          <CallExchange call={report} />
        </div>
      )}
      {open && (
        <div id={`${id}-body`} className="space-y-2 border-t border-zinc-200 p-2 dark:border-zinc-800">
          <pre
            className="overflow-auto whitespace-pre-wrap break-all rounded bg-zinc-50 p-1.5 font-mono text-[11px] dark:bg-zinc-900"
            aria-label="Request"
          >
            {JSON.stringify(call.request)}
          </pre>
          <div className="flex flex-wrap gap-1">
            <button type="button" className={small} onClick={() => setRenaming(call.name)} data-testid="call-rename">
              Rename
            </button>
            <button type="button" className={small} onClick={() => onMove(-1)} disabled={index === 0} aria-label={`Move ${call.name} up`}>
              ↑
            </button>
            <button
              type="button"
              className={small}
              onClick={() => onMove(1)}
              disabled={index === count - 1}
              aria-label={`Move ${call.name} down`}
            >
              ↓
            </button>
            <button type="button" className={`${small} text-red-700 dark:text-red-300`} onClick={onRemove} data-testid="call-remove">
              Remove call
            </button>
          </div>
          <h4 className="text-xs font-semibold">Expectations</h4>
          {pointers.length > 0 && (
            <datalist id={pointerList}>
              {pointers.map((p) => (
                <option key={p} value={p} />
              ))}
            </datalist>
          )}
          <ul className="space-y-1.5">
            {call.expect.map((e, i) => (
              <ExpectationRow
                key={expectationKeys[i]}
                n={i + 1}
                expectation={e}
                hint={hint}
                warnings={warnings.filter((w) => w.index === i).map((w) => w.message)}
                result={report?.expectations[i]}
                pointerList={pointers.length ? pointerList : undefined}
                toolList={toolList}
                onChange={(next) => setExpect(call.expect.map((old, j) => (j === i ? next : old)))}
                onRemove={() => setExpect(call.expect.filter((_, j) => j !== i))}
              />
            ))}
          </ul>
          {warnings
            .filter((w) => w.index < 0)
            .map((w) => (
              <p key={w.message} className="text-xs text-amber-800 dark:text-amber-300" data-testid="expectation-warning">
                ⚠ {w.message}
              </p>
            ))}
          <div className="flex flex-wrap gap-1">
            <button
              type="button"
              className={small}
              onClick={() => setExpect([...call.expect, defaultExpectation("equals", hint)])}
              data-testid="expectation-add"
            >
              Add expectation
            </button>
            <button
              type="button"
              className={small}
              disabled={!answer}
              title={answer ? "Expectations this call's last answer meets" : "Run the call first: its answer is what is proposed from"}
              onClick={() =>
                answer && setExpect(mergeProposals(call.expect, proposeExpectations(report?.request ?? call.request, answer, tool)))
              }
              data-testid="call-expect-this"
            >
              Expect this
            </button>
          </div>
          <CapturesField call={call} onChange={onChange} />
          <AnswersField call={call} onChange={onChange} id={`${id}-answers`} />
        </div>
      )}
    </li>
  );
}

/** The call's expectations with the proposed ones it does not have yet (the same JSON), appended. */
export function mergeProposals(have: CollectionCall["expect"], proposed: CollectionCall["expect"]): CollectionCall["expect"] {
  const seen = new Set(have.map((e) => JSON.stringify(e)));
  return [...have, ...proposed.filter((e) => !seen.has(JSON.stringify(e)))];
}

/** Captures as `name = /pointer` lines; a line that does not read is named, the others kept. */
function CapturesField({ call, onChange }: { call: CollectionCall; onChange: (c: CollectionCall) => void }) {
  const [draft, setDraft] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const id = useId();
  const text =
    draft ??
    Object.entries(call.capture ?? {})
      .map(([k, v]) => `${k} = ${v}`)
      .join("\n");
  return (
    <div className="space-y-0.5">
      <label htmlFor={id} className="text-[11px] text-zinc-500">
        Captures: one <code>name = /pointer</code> per line; later calls use <code>{"{{name}}"}</code>
      </label>
      <textarea
        id={id}
        className={`${fieldClass} w-full`}
        rows={Math.max(1, text.split("\n").length)}
        value={text}
        spellCheck={false}
        aria-invalid={error ? true : undefined}
        data-testid="call-captures"
        onChange={(ev) => {
          const value = ev.target.value;
          const capture: Record<string, string> = {};
          for (const [i, line] of value.split("\n").entries()) {
            if (!line.trim()) continue;
            const m = /^\s*([A-Za-z_][A-Za-z0-9_.-]*)\s*=\s*(\/\S*)\s*$/.exec(line);
            if (!m) {
              setDraft(value);
              setError(`Line ${i + 1}: write name = /pointer (a name of letters, digits, _ . -; a pointer starting with /).`);
              return;
            }
            capture[m[1]] = m[2];
          }
          setDraft(value);
          setError(null);
          const { capture: _c, ...rest } = call;
          onChange(Object.keys(capture).length ? { ...rest, capture } : rest);
        }}
        onBlur={() => !error && setDraft(null)}
      />
      {error && (
        <p role="alert" className="text-[11px] text-red-700 dark:text-red-300">
          {error}
        </p>
      )}
    </div>
  );
}
