"use client";

import { useEffect, useState } from "react";
import { jsonEqual } from "@/lib/forms/form-value";
import { findUnsafeIntegers } from "@/lib/mcp/safe-integers";
import type { ControlProps } from "./field-props";
import { useFormContext } from "./form-context";
import { errorClass, monoInputClass, noteClass } from "./form-styles";

const show = (value: unknown) => (value === undefined ? "" : JSON.stringify(value, null, 2));

/**
 * A part of the value edited as JSON text: what the form cannot express, or a value that does not fit the schema.
 * The value is kept exactly as it is until the user edits the text; `note` says why this part is JSON.
 */
export function JsonField(props: Omit<ControlProps, "node"> & { note: string }) {
  const { value, pointer, id, describedBy, invalid, onChange, inArray, required, note, label } = props;
  const { disabled, touch, setPending } = useFormContext();
  const [draft, setDraft] = useState(() => show(value));
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const [seen, setSeen] = useState(value);
  if (!jsonEqual(seen, value)) {
    setSeen(value);
    if (!standsFor(draft, value)) {
      setDraft(show(value));
      setProblem(undefined);
    }
  }
  useEffect(() => setPending(pointer, problem), [setPending, pointer, problem]);
  useEffect(() => () => setPending(pointer, undefined), [setPending, pointer]);

  const change = (text: string) => {
    setDraft(text);
    touch(pointer);
    if (text.trim() === "") {
      if (inArray || required) return setProblem(inArray ? "needs a JSON value (or remove the item)" : "needs a JSON value");
      setProblem(undefined);
      return onChange(undefined);
    }
    const unsafe = findUnsafeIntegers(text);
    if (unsafe.length > 0) return setProblem(`holds ${unsafe[0].literal}, beyond ±2^53 − 1: JSON numbers cannot carry it exactly`);
    try {
      const parsed: unknown = JSON.parse(text);
      setProblem(undefined);
      onChange(parsed);
    } catch (err) {
      setProblem(`is not valid JSON yet: ${(err as Error).message}`);
    }
  };

  const noteId = `${id}-note`;
  const problemId = `${id}-draft`;
  const lines = draft.split("\n").length;
  return (
    <>
      {note && (
        <p id={noteId} className={noteClass} data-testid="json-fallback-note">
          {note}
        </p>
      )}
      <textarea
        id={id}
        data-field={pointer.slice(1)}
        data-testid="json-field"
        className={monoInputClass}
        rows={Math.min(10, Math.max(2, lines))}
        value={draft}
        disabled={disabled}
        spellCheck={false}
        aria-invalid={invalid || problem !== undefined || undefined}
        aria-required={required || undefined}
        aria-describedby={[problem ? problemId : "", note ? noteId : "", describedBy ?? ""].filter(Boolean).join(" ") || undefined}
        onChange={(e) => change(e.target.value)}
      />
      {problem && (
        <p id={problemId} className={errorClass} data-testid="field-error">
          {label} {problem}
        </p>
      )}
    </>
  );
}

function standsFor(draft: string, value: unknown): boolean {
  if (draft.trim() === "") return value === undefined;
  try {
    return jsonEqual(JSON.parse(draft), value);
  } catch {
    return false;
  }
}
