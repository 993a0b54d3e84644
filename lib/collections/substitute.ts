/**
 * `{{name}}` placeholders in a call, filled from the run's variables. A string that is exactly one placeholder takes
 * the variable's value with its type (`"{{id}}"` → 42, so a captured number goes on as a number, as a tool's schema
 * wants it); a placeholder inside a longer string is replaced by the value's text. Object keys are left alone.
 */
import { isObject } from "../json/guards.ts";

/** A placeholder: `{{ name }}` (spaces allowed inside the braces). */
const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_.-]*)\s*\}\}/g;
const WHOLE = /^\{\{\s*([A-Za-z_][A-Za-z0-9_.-]*)\s*\}\}$/;

export type Substituted<T> = { ok: true; value: T } | { ok: false; missing: string[] };

/** The names of the placeholders in `value`, in order of first use. */
export function placeholders(value: unknown): string[] {
  const names = new Set<string>();
  const walk = (v: unknown): void => {
    if (typeof v === "string") for (const m of v.matchAll(PLACEHOLDER)) names.add(m[1]);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (isObject(v)) Object.values(v).forEach(walk);
  };
  walk(value);
  return [...names];
}

function asText(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** `value` with its placeholders filled from `variables`; or the names that have no value (none is filled then). */
export function substitute<T>(value: T, variables: ReadonlyMap<string, unknown>): Substituted<T> {
  const missing = placeholders(value).filter((name) => !variables.has(name));
  if (missing.length) return { ok: false, missing };
  const fill = (v: unknown): unknown => {
    if (typeof v === "string") {
      const whole = WHOLE.exec(v);
      if (whole) return variables.get(whole[1]);
      return v.replace(PLACEHOLDER, (_, name: string) => asText(variables.get(name)));
    }
    if (Array.isArray(v)) return v.map(fill);
    if (isObject(v)) return Object.fromEntries(Object.entries(v).map(([k, item]) => [k, fill(item)]));
    return v;
  };
  return { ok: true, value: fill(value) as T };
}
