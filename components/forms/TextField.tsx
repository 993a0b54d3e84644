"use client";

import { useEffect, useState } from "react";
import type { FormNode } from "@/lib/forms/form-model";
import { jsonEqual } from "@/lib/forms/form-value";
import { draftOf, inputTypeFor, parseDraft } from "@/lib/forms/text-input";
import type { ControlProps } from "./field-props";
import { useFormContext } from "./form-context";
import { errorClass, inputClass } from "./form-styles";

type TextNode = Extract<FormNode, { kind: "string" | "number" }>;

/**
 * A string or number input. It keeps what was typed (its draft) while the draft still stands for the value, so a
 * half-typed "1." stays with its problem shown instead of being rewritten; a change from outside (the JSON editor)
 * replaces the text, and the focus and caret of the field being typed in are left alone.
 */
export function TextField(props: ControlProps<TextNode>) {
  const { node, value, pointer, id, describedBy, invalid, onChange, inArray, required } = props;
  const { disabled, touch, setPending } = useFormContext();
  const [draft, setDraft] = useState(() => draftOf(node, value));
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const [seen, setSeen] = useState(value);
  if (!jsonEqual(seen, value)) {
    // Adjusting state to a new prop during render (React's documented pattern), not in an effect: no flicker.
    setSeen(value);
    if (!standsFor(node, draft, value, inArray)) {
      setDraft(draftOf(node, value));
      setProblem(undefined);
    }
  }
  useEffect(() => setPending(pointer, problem), [setPending, pointer, problem]);
  useEffect(() => () => setPending(pointer, undefined), [setPending, pointer]);

  const change = (text: string) => {
    setDraft(text);
    touch(pointer);
    const parsed = parseDraft(node, text);
    if ("error" in parsed) return setProblem(parsed.error);
    if ("empty" in parsed) {
      if (inArray && node.kind === "number") return setProblem("needs a number (or remove the item)");
      setProblem(undefined);
      return onChange(inArray ? "" : undefined);
    }
    setProblem(undefined);
    onChange(parsed.value);
  };

  const problemId = `${id}-draft`;
  const type = node.kind === "number" ? "text" : inputTypeFor(node, value);
  return (
    <>
      <input
        id={id}
        data-field={pointer.slice(1)}
        type={type}
        step={type === "time" || type === "datetime-local" ? 1 : undefined}
        inputMode={node.kind === "number" ? (node.integer ? "numeric" : "decimal") : undefined}
        className={inputClass}
        value={draft}
        disabled={disabled}
        spellCheck={node.kind === "string" && node.inputType === "text" ? undefined : false}
        aria-invalid={invalid || problem !== undefined || undefined}
        aria-required={required || undefined}
        aria-describedby={[problem ? problemId : "", describedBy ?? ""].filter(Boolean).join(" ") || undefined}
        onChange={(e) => change(e.target.value)}
      />
      {problem && (
        <p id={problemId} className={errorClass} data-testid="field-error">
          {props.label} {problem}
        </p>
      )}
    </>
  );
}

/** Whether the text in a field already means `value` (then a value change from outside leaves the text alone). */
function standsFor(node: TextNode, draft: string, value: unknown, inArray: boolean): boolean {
  const parsed = parseDraft(node, draft);
  if ("value" in parsed) return jsonEqual(parsed.value, value);
  if ("empty" in parsed) return value === undefined || (inArray && value === "");
  return false;
}
