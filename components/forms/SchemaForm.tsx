"use client";

import { useCallback, useEffect, useId, useMemo, useRef, useState, type JSX } from "react";
import { isObject } from "@/lib/json/guards";
import { cachedFormModel } from "@/lib/forms/form-model";
import { formErrors } from "@/lib/forms/form-errors";
import { fillDefaults } from "@/lib/forms/form-value";
import { Field, ObjectBody } from "./Field";
import { FormContext, type FormContextValue } from "./form-context";
import { errorClass, smallButton } from "./form-styles";

export interface SchemaFormProps {
  /** The JSON Schema (a tool's inputSchema, a prompt's arguments as a schema, or an elicitation requestedSchema). */
  schema: unknown;
  /** The current value (e.g. params.arguments), may be undefined. */
  value: unknown;
  /** Called with the whole new value on each edit. */
  onChange: (next: Record<string, unknown>) => void;
  /** For unique ids when two forms are on a page. */
  idPrefix?: string;
  disabled?: boolean;
  /**
   * When schema errors show: "always" (default; the editor beside it shows them too), or "after-edit" (each field
   * once edited; all of them once `revealErrors` is set, e.g. on submit).
   */
  errorsShown?: "always" | "after-edit";
  revealErrors?: boolean;
  /** Told which fields hold text that is not a value yet ("1.", broken JSON), by pointer: a submit should wait. */
  onPendingChange?: (pending: ReadonlyMap<string, string>) => void;
  /** Hide the "Fill defaults" button (a caller that fills them itself). */
  hideFillDefaults?: boolean;
}

/**
 * A form generated from a JSON Schema, controlled by `value`: each edit hands the whole new value to `onChange`,
 * replacing only the part edited (keys and values the form does not know are kept as they are). A change of `value`
 * from outside shows in the fields without taking the focus away. Errors come from the editor's ajv rules and sit
 * on the field they belong to; those that belong to none are listed on top.
 */
export function SchemaForm(props: SchemaFormProps): JSX.Element {
  const {
    schema,
    value,
    onChange,
    disabled = false,
    errorsShown = "always",
    revealErrors = false,
    onPendingChange,
    hideFillDefaults,
  } = props;
  const generatedId = useId();
  const idPrefix = props.idPrefix ?? generatedId.replace(/[^A-Za-z0-9_-]/g, "");
  const model = useMemo(() => cachedFormModel(schema), [schema]);
  const rootValue = useMemo(() => (value === undefined && model.node.kind === "object" ? {} : value), [value, model]);
  const [picks, setPicks] = useState<Record<string, number>>({});
  const [touched, setTouched] = useState<ReadonlySet<string>>(new Set());
  const [modelSeen, setModelSeen] = useState(model);
  if (modelSeen !== model) {
    // Another schema (another tool): the branches chosen and fields edited were those of the old one.
    setModelSeen(model);
    setPicks({});
    setTouched(new Set());
  }
  const errors = useMemo(() => formErrors(model, rootValue, picks), [model, rootValue, picks]);

  const pending = useRef(new Map<string, string>());
  const onPendingRef = useRef(onPendingChange);
  useEffect(() => {
    onPendingRef.current = onPendingChange;
  }, [onPendingChange]);
  const setPending = useCallback((pointer: string, problem: string | undefined) => {
    const map = pending.current;
    if (problem === undefined ? !map.has(pointer) : map.get(pointer) === problem) return;
    if (problem === undefined) map.delete(pointer);
    else map.set(pointer, problem);
    onPendingRef.current?.(new Map(map));
  }, []);
  const touch = useCallback((pointer: string) => setTouched((t) => (t.has(pointer) ? t : new Set(t).add(pointer))), []);
  const setPick = useCallback(
    (pointer: string, branch: number) => setPicks((p) => (p[pointer] === branch ? p : { ...p, [pointer]: branch })),
    [],
  );

  const showAll = errorsShown === "always" || revealErrors;
  const ctx: FormContextValue = {
    model,
    idPrefix,
    disabled,
    errors,
    // A field's errors show once it, or a field inside it, was edited.
    errorsShownFor: (pointer) => showAll || [...touched].some((t) => t === pointer || t.startsWith(`${pointer}/`)),
    touch,
    picks,
    setPick,
    setPending,
  };

  const emit = (next: unknown) => onChange((next === undefined ? {} : next) as Record<string, unknown>);
  const filled = hideFillDefaults ? rootValue : fillDefaults(model, rootValue);
  const root = model.node;
  return (
    <FormContext.Provider value={ctx}>
      <div className="space-y-2 text-sm" data-testid="schema-form">
        {(filled !== rootValue || (showAll && errors.top.length > 0)) && (
          <div className="flex flex-wrap items-start gap-2">
            {showAll && errors.top.length > 0 && (
              <ul
                className={`${errorClass} min-w-0 flex-1 list-disc pl-4`}
                data-testid="form-errors"
                aria-label="Problems not tied to one field"
              >
                {errors.top.map((m, i) => (
                  <li key={i}>{m}</li>
                ))}
              </ul>
            )}
            {filled !== rootValue && (
              <button
                type="button"
                className={`${smallButton} ml-auto`}
                disabled={disabled}
                onClick={() => emit(filled)}
                data-testid="fill-defaults"
              >
                Fill defaults
              </button>
            )}
          </div>
        )}
        {root.kind === "object" && (rootValue === undefined || isObject(rootValue)) ? (
          <ObjectBody node={root} value={rootValue} pointer="" onChange={emit} label="the arguments" />
        ) : (
          <Field node={root} value={rootValue} pointer="" label={root.title ?? "Value"} required onChange={emit} />
        )}
        {root.kind === "object" && root.properties.length === 0 && !(isObject(rootValue) && Object.keys(rootValue).length > 0) && (
          <p className="text-xs text-zinc-500 dark:text-zinc-400" data-testid="form-empty">
            {root.additional === "forbidden" ? "No arguments." : "The schema names no properties."}
          </p>
        )}
      </div>
    </FormContext.Provider>
  );
}
