"use client";

import type { FormNode } from "@/lib/forms/form-model";
import { jsonEqual } from "@/lib/forms/form-value";
import type { ControlProps } from "./field-props";
import { useFormContext } from "./form-context";
import { inputClass, smallButton } from "./form-styles";

type Of<K extends FormNode["kind"]> = Extract<FormNode, { kind: K }>;

/** The attributes every input of a field carries. */
function common(p: ControlProps, ctxDisabled: boolean) {
  return {
    id: p.id,
    "data-field": p.pointer.slice(1),
    disabled: ctxDisabled,
    "aria-invalid": p.invalid || undefined,
    "aria-describedby": p.describedBy,
  };
}

/**
 * A boolean: a checkbox, or (required with no default) a Yes / No pair, because an unticked box cannot tell "no"
 * from "not answered yet" and the question must be answered explicitly.
 */
export function BooleanField(p: ControlProps<Of<"boolean">>) {
  const { disabled, touch } = useFormContext();
  const set = (v: boolean | undefined) => {
    touch(p.pointer);
    p.onChange(v);
  };
  if (p.node.explicit) {
    return (
      <div className="flex gap-4" role="radiogroup" aria-labelledby={`${p.id}-label`} aria-describedby={p.describedBy} aria-required>
        {[true, false].map((choice) => (
          <label key={String(choice)} className="flex items-center gap-1.5 text-sm">
            <input
              type="radio"
              name={p.id}
              {...(choice ? common(p, disabled) : { disabled, "aria-invalid": p.invalid || undefined })}
              checked={p.value === choice}
              onChange={() => set(choice)}
            />
            {choice ? "Yes" : "No"}
          </label>
        ))}
      </div>
    );
  }
  // Optional with no default: left out, true and false are three answers, and an unticked box cannot show the first
  // (issue 26: "omit to flip" read the same as false). Left out shows as a mixed box with "not set"; once answered,
  // "Leave out" takes the argument out again.
  const unsettable = !p.required && !p.node.hasDefault && !p.inArray;
  const unset = unsettable && p.value === undefined;
  const box = (
    <input
      type="checkbox"
      {...common(p, disabled)}
      aria-required={p.required || undefined}
      className="size-4"
      ref={(el) => {
        if (el) el.indeterminate = unset;
      }}
      checked={p.value === true}
      onChange={(e) => set(e.target.checked)}
    />
  );
  if (!unsettable) return box;
  return (
    <span className="inline-flex items-center gap-2">
      {box}
      {unset ? (
        <span className="text-xs text-zinc-500" data-testid="boolean-not-set">
          not set
        </span>
      ) : (
        <button
          type="button"
          className="rounded text-xs text-accent-700 underline focus-visible:outline-2 focus-visible:outline-accent-600 dark:text-accent-100"
          disabled={disabled}
          onClick={() => set(undefined)}
          aria-label={`Leave out ${p.label}`}
        >
          Leave out
        </button>
      )}
    </span>
  );
}

/** One of a list of JSON scalars, by position (values need not be strings); "(not set)" leaves it out. */
export function EnumField(p: ControlProps<Of<"enum">>) {
  const { disabled, touch } = useFormContext();
  const index = p.node.options.findIndex((o) => jsonEqual(o.value, p.value));
  return (
    <select
      {...common(p, disabled)}
      aria-required={p.required || undefined}
      className={inputClass}
      value={index < 0 ? "" : String(index)}
      onChange={(e) => {
        touch(p.pointer);
        p.onChange(e.target.value === "" ? undefined : p.node.options[Number(e.target.value)].value);
      }}
    >
      <option value="">{p.required ? "Choose…" : "(not set)"}</option>
      {p.node.options.map((o, i) => (
        <option key={i} value={String(i)}>
          {o.label}
        </option>
      ))}
    </select>
  );
}

/** Several of a list of choices: one checkbox each, the chosen values in the list's order. */
export function MultiSelectField(p: ControlProps<Of<"multiselect">>) {
  const { disabled, touch } = useFormContext();
  const chosen = Array.isArray(p.value) ? p.value : [];
  const toggle = (i: number, on: boolean) => {
    touch(p.pointer);
    const value = p.node.options[i].value;
    const next = on
      ? p.node.options.filter((o) => o.value === value || chosen.some((c) => jsonEqual(c, o.value))).map((o) => o.value)
      : chosen.filter((c) => !jsonEqual(c, value));
    p.onChange(next.length === 0 && !p.required && !p.inArray ? undefined : next);
  };
  return (
    <div className="flex flex-wrap gap-x-3 gap-y-1">
      {p.node.options.map((o, i) => (
        <label key={i} className="flex items-center gap-1 text-sm">
          <input
            type="checkbox"
            {...(i === 0 ? common(p, disabled) : { disabled, "aria-describedby": p.describedBy })}
            checked={chosen.some((c) => jsonEqual(c, o.value))}
            onChange={(e) => toggle(i, e.target.checked)}
          />
          {o.label}
        </label>
      ))}
    </div>
  );
}

/** A `const`: shown, not editable; set with one click when absent. */
export function ConstField(p: ControlProps<Of<"const">>) {
  const { disabled, touch } = useFormContext();
  const text = JSON.stringify(p.node.value);
  return (
    <div className="flex items-center gap-2">
      <output id={p.id} aria-describedby={p.describedBy} className="rounded bg-zinc-100 px-1.5 py-0.5 font-mono text-xs dark:bg-zinc-800">
        {text}
      </output>
      {p.value === undefined && (
        <button
          type="button"
          className={smallButton}
          disabled={disabled}
          data-field={p.pointer.slice(1)}
          onClick={() => {
            touch(p.pointer);
            p.onChange(structuredClone(p.node.value));
          }}
        >
          Set {p.label} to {text}
        </button>
      )}
    </div>
  );
}
