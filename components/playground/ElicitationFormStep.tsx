"use client";

import { useId, useMemo, useRef, useState } from "react";
import { buildElicitationForm, checkForm, initialValues, type FormField, type FormValues } from "@/lib/playground/elicitation-form";
import { elicitResult } from "@/lib/playground/mrtr";

interface Props {
  /** The server's message, shown as plain text (never as links). */
  message: string;
  requestedSchema: unknown;
  /** The ElicitResult for this request. */
  onAnswer: (result: Record<string, unknown>) => void;
}

const inputClass = "w-full rounded-md border border-zinc-300 bg-white px-2 py-1 text-sm dark:border-zinc-700 dark:bg-zinc-900";

/** A form generated from an elicitation's `requestedSchema`, validated as the user types; Submit / Decline / Cancel. */
export function ElicitationFormStep({ message, requestedSchema, onAnswer }: Props) {
  const form = useMemo(() => buildElicitationForm(requestedSchema), [requestedSchema]);
  const [values, setValues] = useState<FormValues>(() => initialValues(form));
  const [touched, setTouched] = useState<Set<string>>(new Set());
  const [submitted, setSubmitted] = useState(false);
  const check = useMemo(() => checkForm(form, requestedSchema, values), [form, requestedSchema, values]);
  const formRef = useRef<HTMLFormElement>(null);
  const idBase = useId();

  const set = (name: string, value: FormValues[string]) => {
    setValues((v) => ({ ...v, [name]: value }));
    setTouched((t) => (t.has(name) ? t : new Set(t).add(name)));
  };

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    setSubmitted(true);
    if (!check.ok) {
      const first = form.fields.find((f) => check.errors[f.name]);
      if (first) formRef.current?.querySelector<HTMLElement>(`[data-field="${CSS.escape(first.name)}"]`)?.focus();
      return;
    }
    onAnswer(elicitResult("accept", check.content));
  };

  return (
    <form ref={formRef} onSubmit={submit} noValidate data-testid="elicitation-form" className="space-y-3">
      <p className="whitespace-pre-wrap text-sm" data-testid="elicitation-message">
        {message || "(The server sent no message.)"}
      </p>
      {form.warnings.length > 0 && (
        <ul className="list-disc rounded-md bg-amber-50 py-2 pl-6 pr-2 text-xs text-amber-900 dark:bg-amber-950/50 dark:text-amber-200">
          {form.warnings.map((w, i) => (
            <li key={i}>{w}</li>
          ))}
        </ul>
      )}
      {form.fields.map((f) => {
        const id = `${idBase}-${f.name}`;
        const error = (submitted || touched.has(f.name)) && check.errors[f.name];
        return (
          <div key={f.name}>
            <FieldInput field={f} id={id} value={values[f.name]} onChange={(v) => set(f.name, v)} invalid={Boolean(error)} />
            {f.description && f.kind !== "boolean" && (
              <p id={`${id}-desc`} className="mt-0.5 text-xs text-zinc-500">
                {f.description}
              </p>
            )}
            {error && (
              <p id={`${id}-err`} className="mt-0.5 text-xs text-red-700 dark:text-red-400" data-testid="field-error">
                {f.label} {error}
              </p>
            )}
          </div>
        );
      })}
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

function Label({ field, id }: { field: FormField; id: string }) {
  return (
    <label htmlFor={id} className="mb-0.5 block text-sm font-medium">
      {field.label}
      {field.required && (
        <span className="ml-0.5 text-red-600" aria-hidden>
          {" "}
          *
        </span>
      )}
      {field.required && <span className="sr-only"> (required)</span>}
    </label>
  );
}

function FieldInput({
  field,
  id,
  value,
  onChange,
  invalid,
}: {
  field: FormField;
  id: string;
  value: FormValues[string] | undefined;
  onChange: (v: FormValues[string]) => void;
  invalid: boolean;
}) {
  const described = [field.description ? `${id}-desc` : "", invalid ? `${id}-err` : ""].filter(Boolean).join(" ") || undefined;
  const common = {
    id,
    "data-field": field.name,
    "aria-invalid": invalid || undefined,
    "aria-describedby": described,
    "aria-required": field.required || undefined,
  };
  switch (field.kind) {
    case "boolean":
      return (
        <div className="flex items-start gap-2">
          <input
            type="checkbox"
            {...common}
            className="mt-1 size-4"
            checked={value === true}
            onChange={(e) => onChange(e.target.checked)}
          />
          <div>
            <Label field={field} id={id} />
            {field.description && <p className="text-xs text-zinc-500">{field.description}</p>}
          </div>
        </div>
      );
    case "select":
      return (
        <>
          <Label field={field} id={id} />
          <select
            {...common}
            className={inputClass}
            value={typeof value === "string" ? value : ""}
            onChange={(e) => onChange(e.target.value)}
          >
            <option value="">{field.required ? "Choose…" : "(none)"}</option>
            {field.options.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
        </>
      );
    case "multiselect": {
      const chosen = Array.isArray(value) ? value : [];
      return (
        <fieldset {...common} tabIndex={-1}>
          <legend className="mb-0.5 text-sm font-medium">
            {field.label}
            {field.required && (
              <span className="ml-0.5 text-red-600" aria-hidden>
                {" "}
                *
              </span>
            )}
          </legend>
          <div className="flex flex-wrap gap-3">
            {field.options.map((o) => (
              <label key={o.value} className="flex items-center gap-1 text-sm">
                <input
                  type="checkbox"
                  checked={chosen.includes(o.value)}
                  onChange={(e) => onChange(e.target.checked ? [...chosen, o.value] : chosen.filter((c) => c !== o.value))}
                />
                {o.label}
              </label>
            ))}
          </div>
        </fieldset>
      );
    }
    case "number":
      return (
        <>
          <Label field={field} id={id} />
          <input
            type="text"
            inputMode={field.integer ? "numeric" : "decimal"}
            {...common}
            className={inputClass}
            value={typeof value === "string" ? value : ""}
            onChange={(e) => onChange(e.target.value)}
            placeholder={
              [field.minimum !== undefined ? `≥ ${field.minimum}` : "", field.maximum !== undefined ? `≤ ${field.maximum}` : ""]
                .filter(Boolean)
                .join(", ") || undefined
            }
          />
        </>
      );
    case "text":
      return (
        <>
          <Label field={field} id={id} />
          <input
            type={field.inputType}
            {...common}
            className={inputClass}
            value={typeof value === "string" ? value : ""}
            onChange={(e) => onChange(e.target.value)}
          />
        </>
      );
    case "unsupported":
      return (
        <>
          <Label field={field} id={id} />
          <p className="text-xs text-amber-800 dark:text-amber-300">Cannot be filled here: {field.reason}.</p>
        </>
      );
  }
}
