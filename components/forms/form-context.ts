"use client";

import { createContext, useContext } from "react";
import type { FormErrors, BranchPicks } from "@/lib/forms/form-errors";
import type { FormModel } from "@/lib/forms/form-model";

/** What every field of one form shares: the model, ids, the errors of the current value and the form's memory. */
export interface FormContextValue {
  model: FormModel;
  /** Prefix of every element id, unique per form on the page. */
  idPrefix: string;
  disabled: boolean;
  errors: FormErrors;
  /** Whether the schema errors of a field are shown yet (always, or once it was edited or the form submitted). */
  errorsShownFor: (pointer: string) => boolean;
  /** The user edited the field at `pointer`. */
  touch: (pointer: string) => void;
  /** The branch the user chose for each choice, by pointer. */
  picks: BranchPicks;
  setPick: (pointer: string, branch: number) => void;
  /** A field holds text that is not a value yet ("1.", bad JSON): its problem, or undefined once it is fine again. */
  setPending: (pointer: string, problem: string | undefined) => void;
}

export const FormContext = createContext<FormContextValue | null>(null);

export function useFormContext(): FormContextValue {
  const ctx = useContext(FormContext);
  if (!ctx) throw new Error("A form field is rendered outside SchemaForm.");
  return ctx;
}

/** The element id of the field at `pointer` (pointer characters outside [A-Za-z0-9_-] are spelled out). */
export function fieldId(prefix: string, pointer: string): string {
  return `${prefix}-f${pointer.replace(/[^A-Za-z0-9_-]/g, (c) => `_${c.charCodeAt(0).toString(16)}_`)}`;
}
