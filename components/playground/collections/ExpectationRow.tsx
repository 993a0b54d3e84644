"use client";

import { useId, useState } from "react";
import type { Expectation, ExpectationResult } from "@/lib/collections";
import {
  defaultExpectation,
  expectationProblems,
  fieldText,
  KIND_OPTIONS,
  kindDescription,
  kindFields,
  withField,
  type FieldSpec,
} from "@/lib/collections/editing/expectation-form";

interface Props {
  expectation: Expectation;
  /** Row number for labels (1-based). */
  n: number;
  onChange: (e: Expectation) => void;
  onRemove: () => void;
  /** Warnings written beside it (a field the tool's output schema cannot have…). */
  warnings: readonly string[];
  /** Its verdict in the last run, if it ran. */
  result?: ExpectationResult;
  /** The id of a <datalist> of pointers into the call's last answer, for pointer fields. */
  pointerList?: string;
  /** The id of a <datalist> of the server's tool names. */
  toolList?: string;
  /** What a new kind is filled from (the called tool, the last answer). */
  hint: Parameters<typeof defaultExpectation>[1];
}

export const fieldClass =
  "min-w-0 rounded border border-zinc-300 bg-white px-1.5 py-0.5 font-mono text-xs dark:border-zinc-700 dark:bg-zinc-950 aria-[invalid=true]:border-red-500";

/** One field of an expectation; its text is kept while it does not parse, with the message saying what to change. */
function Field({
  e,
  spec,
  onChange,
  pointerList,
  toolList,
}: {
  e: Expectation;
  spec: FieldSpec;
  onChange: (e: Expectation) => void;
  pointerList?: string;
  toolList?: string;
}) {
  const [draft, setDraft] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const text = draft ?? fieldText(e, spec);
  const label = `${spec.name}${spec.required ? "" : " (optional)"}`;
  const id = useId();
  const commit = (value: string) => {
    const edit = withField(e, spec, value);
    if (edit.ok) {
      setError(null);
      setDraft(null);
      onChange(edit.expectation);
    } else {
      setDraft(value);
      setError(edit.error);
    }
  };
  if (spec.type === "boolean")
    return (
      <label className="flex items-center gap-1 text-xs">
        {spec.name}
        <select
          className={fieldClass}
          value={text || "false"}
          onChange={(ev) => commit(ev.target.value)}
          data-testid="expectation-field"
          data-field={spec.name}
        >
          <option value="true">true</option>
          <option value="false">false</option>
        </select>
      </label>
    );
  // JSON and pointer lists grow to full width once they hold more than a line; a short value stays on the row.
  const multiline = (spec.type === "json" || spec.type === "pointers") && (text.includes("\n") || text.length > 60);
  const common = {
    id,
    value: text,
    "aria-invalid": error ? true : undefined,
    "aria-describedby": error ? `${id}-error` : undefined,
    "data-testid": "expectation-field",
    "data-field": spec.name,
    placeholder: spec.type === "pointer" ? "/result/…" : spec.type === "pointers" ? "one pointer per line" : undefined,
  };
  return (
    <div className={`flex min-w-0 flex-wrap items-center gap-x-1 gap-y-0.5 ${multiline ? "basis-full" : "flex-1 basis-56"}`}>
      <label htmlFor={id} className="shrink-0 text-[11px] text-zinc-500">
        {label}
      </label>
      {multiline ? (
        <textarea
          {...common}
          rows={Math.min(6, Math.max(1, text.split("\n").length))}
          className={`${fieldClass} w-full`}
          spellCheck={false}
          onChange={(ev) => commit(ev.target.value)}
        />
      ) : (
        <input
          {...common}
          type="text"
          inputMode={spec.type === "integer" ? "numeric" : undefined}
          list={spec.type === "pointer" ? pointerList : spec.name === "tool" ? toolList : undefined}
          className={`${fieldClass} min-w-0 flex-1`}
          spellCheck={false}
          autoComplete="off"
          onChange={(ev) => commit(ev.target.value)}
        />
      )}
      {error && (
        <span
          id={`${id}-error`}
          role="alert"
          className="basis-full text-[11px] text-red-700 dark:text-red-300"
          data-testid="expectation-field-error"
        >
          {error}
        </span>
      )}
    </div>
  );
}

/**
 * One expectation: its kind, its fields (typed by the format's schema, pointers completed from the last answer),
 * what is wrong with it as written, the warnings of the call's tool, and its verdict in the last run.
 */
export function ExpectationRow({ expectation: e, n, onChange, onRemove, warnings, result, pointerList, toolList, hint }: Props) {
  const problems = expectationProblems(e);
  return (
    <li
      className="space-y-1 rounded border border-zinc-200 p-1.5 dark:border-zinc-800"
      data-testid="expectation-row"
      data-kind={e.kind}
      data-verdict={result ? (result.pass ? "pass" : "fail") : undefined}
    >
      <div className="flex flex-wrap items-center gap-2">
        {result && (
          <span
            className={`font-mono text-xs font-semibold ${result.pass ? "text-emerald-700 dark:text-emerald-300" : "text-red-700 dark:text-red-300"}`}
            aria-label={result.pass ? "passed" : "failed"}
          >
            {result.pass ? "✓" : "✗"}
          </span>
        )}
        <label className="flex items-center gap-1 text-xs">
          <span className="sr-only">Expectation {n}: kind</span>
          <select
            className={fieldClass}
            value={e.kind}
            onChange={(ev) => onChange(defaultExpectation(ev.target.value as Expectation["kind"], hint))}
            data-testid="expectation-kind"
            title={kindDescription(e.kind)}
          >
            {KIND_OPTIONS.map((k) => (
              <option key={k} value={k}>
                {k}
              </option>
            ))}
          </select>
        </label>
        <span className="min-w-0 flex-1 text-[11px] text-zinc-500">{kindDescription(e.kind)}</span>
        <button
          type="button"
          className="text-xs text-zinc-500 underline hover:text-red-700"
          onClick={onRemove}
          aria-label={`Remove expectation ${n}`}
          data-testid="expectation-remove"
        >
          Remove
        </button>
      </div>
      {kindFields(e.kind).length > 0 && (
        <div className="flex flex-wrap gap-2">
          {/* Keyed by kind: a new kind starts from its own fields' text. */}
          {kindFields(e.kind).map((spec) => (
            <Field key={`${e.kind}:${spec.name}`} e={e} spec={spec} onChange={onChange} pointerList={pointerList} toolList={toolList} />
          ))}
        </div>
      )}
      {result && !result.pass && (
        <p className="break-words text-xs text-red-700 dark:text-red-300" data-testid="expectation-failure">
          {result.message}
        </p>
      )}
      {problems.map((p) => (
        <p key={p} className="text-xs text-red-700 dark:text-red-300" data-testid="expectation-problem">
          {p}
        </p>
      ))}
      {warnings.map((w) => (
        <p key={w} className="text-xs text-amber-800 dark:text-amber-300" data-testid="expectation-warning">
          ⚠ {w}
        </p>
      ))}
    </li>
  );
}
