"use client";

import { useEffect, useMemo, useRef, useState } from "react";
import { SchemaForm } from "@/components/forms/SchemaForm";
import { checkContent, elicitationModel, elicitationWarnings, initialContent } from "@/lib/playground/server-requests/elicitation-form";
import { elicitResult } from "@/lib/playground/server-requests/mrtr";
import { visibleText } from "@/lib/mcp/visible-text";

interface Props {
  /** The server's message, shown as plain text (never as links). */
  message: string;
  requestedSchema: unknown;
  /** The ElicitResult for this request. */
  onAnswer: (result: Record<string, unknown>) => void;
}

/**
 * A form generated from an elicitation's `requestedSchema` (the same form tools get), its defaults filled in,
 * validated as the user types; Submit waits until every required field is answered. Submit / Decline / Cancel.
 */
export function ElicitationFormStep({ message, requestedSchema, onAnswer }: Props) {
  const model = useMemo(() => elicitationModel(requestedSchema), [requestedSchema]);
  const warnings = useMemo(() => elicitationWarnings(requestedSchema), [requestedSchema]);
  const [content, setContent] = useState<Record<string, unknown>>(() => initialContent(model));
  const [pending, setPending] = useState<ReadonlyMap<string, string>>(new Map());
  const [attempts, setAttempts] = useState(0);
  const check = useMemo(() => checkContent(model, content, pending), [model, content, pending]);
  const formRef = useRef<HTMLFormElement>(null);

  // After a refused Submit, the first field with a problem takes the focus (once its error is on screen).
  useEffect(() => {
    if (attempts > 0) formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [attempts]);

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    if (!check.ok) return setAttempts((n) => n + 1);
    onAnswer(elicitResult("accept", content));
  };

  return (
    <form ref={formRef} onSubmit={submit} noValidate data-testid="elicitation-form" className="space-y-3">
      <p className="whitespace-pre-wrap text-sm" data-testid="elicitation-message">
        {message ? visibleText(message) : "(The server sent no message.)"}
      </p>
      {warnings.length > 0 && (
        <ul className="list-disc rounded-md bg-amber-50 py-2 pl-6 pr-2 text-xs text-amber-900 dark:bg-amber-950/50 dark:text-amber-200">
          {warnings.map((w, i) => (
            <li key={i}>{visibleText(w)}</li>
          ))}
        </ul>
      )}
      <SchemaForm
        schema={requestedSchema}
        value={content}
        onChange={setContent}
        errorsShown="after-edit"
        revealErrors={attempts > 0}
        onPendingChange={setPending}
        hideFillDefaults
      />
      {attempts > 0 && !check.ok && (
        <p className="text-xs text-red-700 dark:text-red-400" role="alert" data-testid="elicit-blocked">
          Answer the fields marked above before submitting.
        </p>
      )}
      <div className="flex flex-wrap justify-end gap-2 pt-1">
        <button
          type="button"
          onClick={() => onAnswer(elicitResult("cancel"))}
          className="rounded-md px-3 py-1.5 text-sm hover:bg-zinc-100 dark:hover:bg-zinc-800"
          data-testid="elicit-cancel"
        >
          Cancel
        </button>
        <button
          type="button"
          onClick={() => onAnswer(elicitResult("decline"))}
          className="rounded-md border border-zinc-300 px-3 py-1.5 text-sm dark:border-zinc-700"
          data-testid="elicit-decline"
        >
          Decline
        </button>
        <button
          type="submit"
          className="rounded-md bg-accent-600 px-4 py-1.5 text-sm font-medium text-white hover:bg-accent-700"
          data-testid="elicit-submit"
        >
          Submit
        </button>
      </div>
    </form>
  );
}
