/**
 * An elicitation form from a `requestedSchema` (MCP 2026-07-28, client/elicitation): a flat object of
 * primitive properties (string with optional format, number/integer, boolean, single- and multi-select enums,
 * titled or not). Pure: the UI renders {@link FormField}s, keeps raw input as {@link FormValues}, and asks
 * {@link checkForm} for the content to send and the problems to show.
 */
import { validateAgainst } from "../schema/validate.ts";
import { isObject } from "../json/guards.ts";
import { unescapeToken } from "../json/pointer.ts";

export interface FormOption {
  value: string;
  label: string;
}

interface FieldBase {
  /** The property name (the key in `content`). */
  name: string;
  /** What the user reads: `title`, else the name. */
  label: string;
  description?: string;
  required: boolean;
}

export type FormField =
  | (FieldBase & {
      kind: "text";
      inputType: "text" | "email" | "url" | "date" | "datetime-local";
      format?: string;
      minLength?: number;
      maxLength?: number;
      default?: string;
    })
  | (FieldBase & { kind: "number"; integer: boolean; minimum?: number; maximum?: number; default?: number })
  | (FieldBase & { kind: "boolean"; default?: boolean })
  | (FieldBase & { kind: "select"; options: FormOption[]; default?: string })
  | (FieldBase & { kind: "multiselect"; options: FormOption[]; minItems?: number; maxItems?: number; default?: string[] })
  /** A property outside the spec's restricted subset: shown, never filled (the server asked for something a form cannot give). */
  | (FieldBase & { kind: "unsupported"; reason: string });

export interface ElicitationForm {
  fields: FormField[];
  /** Problems with the schema itself (not an object, nested properties…), shown above the form. */
  warnings: string[];
}

/** Raw input per field: text/number fields hold the typed string, booleans a boolean, multiselects the chosen values. */
export type FormValues = Record<string, string | boolean | string[]>;

export interface FormCheck {
  ok: boolean;
  /** The `content` of an accepting ElicitResult: typed values, empty optional fields left out. */
  content: Record<string, string | number | boolean | string[]>;
  /** One message per field name, for fields with a problem. */
  errors: Record<string, string>;
}

const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === "number" && Number.isFinite(v) ? v : undefined);

const INPUT_TYPES: Record<string, "email" | "url" | "date" | "datetime-local"> = {
  email: "email",
  uri: "url",
  date: "date",
  "date-time": "datetime-local",
};

/** Options of a titled list (`oneOf`/`anyOf` of `{const, title}`), or undefined when it is not one. */
function titledOptions(list: unknown): FormOption[] | undefined {
  if (!Array.isArray(list) || list.length === 0) return undefined;
  const out: FormOption[] = [];
  for (const item of list) {
    if (!isObject(item) || typeof item.const !== "string") return undefined;
    out.push({ value: item.const, label: str(item.title) ?? item.const });
  }
  return out;
}

function plainOptions(list: unknown, names?: unknown): FormOption[] | undefined {
  if (!Array.isArray(list) || list.length === 0 || !list.every((v) => typeof v === "string")) return undefined;
  const labels = Array.isArray(names) ? names : [];
  return (list as string[]).map((v, i) => ({ value: v, label: typeof labels[i] === "string" ? (labels[i] as string) : v }));
}

function fieldFor(name: string, schema: unknown, required: boolean): FormField {
  const base = { name, required, label: name } as FieldBase;
  if (!isObject(schema)) return { ...base, kind: "unsupported", reason: "the property schema is not an object" };
  base.label = str(schema.title) ?? name;
  const description = str(schema.description);
  if (description) base.description = description;
  const type = schema.type;
  if (type === "string") {
    const options = titledOptions(schema.oneOf) ?? plainOptions(schema.enum, schema.enumNames);
    if (options)
      return { ...base, kind: "select", options, ...(str(schema.default) !== undefined ? { default: str(schema.default) } : {}) };
    const format = str(schema.format);
    return {
      ...base,
      kind: "text",
      inputType: (format && INPUT_TYPES[format]) || "text",
      ...(format ? { format } : {}),
      ...(num(schema.minLength) !== undefined ? { minLength: num(schema.minLength) } : {}),
      ...(num(schema.maxLength) !== undefined ? { maxLength: num(schema.maxLength) } : {}),
      ...(str(schema.default) !== undefined ? { default: str(schema.default) } : {}),
    };
  }
  if (type === "number" || type === "integer") {
    return {
      ...base,
      kind: "number",
      integer: type === "integer",
      ...(num(schema.minimum) !== undefined ? { minimum: num(schema.minimum) } : {}),
      ...(num(schema.maximum) !== undefined ? { maximum: num(schema.maximum) } : {}),
      ...(num(schema.default) !== undefined ? { default: num(schema.default) } : {}),
    };
  }
  if (type === "boolean") return { ...base, kind: "boolean", ...(typeof schema.default === "boolean" ? { default: schema.default } : {}) };
  if (type === "array" && isObject(schema.items)) {
    const options = titledOptions(schema.items.anyOf) ?? titledOptions(schema.items.oneOf) ?? plainOptions(schema.items.enum);
    if (options) {
      const def = Array.isArray(schema.default) ? schema.default.filter((v): v is string => typeof v === "string") : undefined;
      return {
        ...base,
        kind: "multiselect",
        options,
        ...(num(schema.minItems) !== undefined ? { minItems: num(schema.minItems) } : {}),
        ...(num(schema.maxItems) !== undefined ? { maxItems: num(schema.maxItems) } : {}),
        ...(def ? { default: def } : {}),
      };
    }
    return { ...base, kind: "unsupported", reason: "arrays are allowed only as a multi-select of string options" };
  }
  if (type === "object") return { ...base, kind: "unsupported", reason: "nested objects are not allowed in an elicitation form" };
  return { ...base, kind: "unsupported", reason: `unsupported type ${JSON.stringify(type ?? null)}` };
}

/** The form for a `requestedSchema`. Never throws: an odd schema gives warnings and unsupported fields. */
export function buildElicitationForm(requestedSchema: unknown): ElicitationForm {
  const warnings: string[] = [];
  if (!isObject(requestedSchema)) return { fields: [], warnings: ["The requested schema is not an object."] };
  if (requestedSchema.type !== "object")
    warnings.push(`The requested schema should have "type": "object", not ${JSON.stringify(requestedSchema.type ?? null)}.`);
  const properties = isObject(requestedSchema.properties) ? requestedSchema.properties : {};
  const required = new Set(
    Array.isArray(requestedSchema.required) ? requestedSchema.required.filter((r): r is string => typeof r === "string") : [],
  );
  const fields = Object.entries(properties).map(([name, schema]) => fieldFor(name, schema, required.has(name)));
  for (const name of required) if (!(name in properties)) warnings.push(`"${name}" is required but has no property schema.`);
  for (const f of fields) if (f.kind === "unsupported") warnings.push(`${f.label}: ${f.reason}.`);
  return { fields, warnings };
}

/** The form's starting values: each field's default, else empty (unticked, nothing chosen). */
export function initialValues(form: ElicitationForm): FormValues {
  const values: FormValues = {};
  for (const f of form.fields) {
    if (f.kind === "boolean") values[f.name] = f.default ?? false;
    else if (f.kind === "multiselect") values[f.name] = f.default ?? [];
    else if (f.kind === "number") values[f.name] = f.default !== undefined ? String(f.default) : "";
    else if (f.kind === "text" || f.kind === "select") values[f.name] = f.default ?? "";
  }
  return values;
}

/** `datetime-local` inputs give "2026-01-01T10:00"; the schema's date-time wants seconds and a zone. */
function toDateTime(value: string): string {
  return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(value) ? `${value}:00Z` : value;
}

/**
 * Turn raw values into `content` and check it against the requested schema (our one validator), with a
 * message per field. Empty optional fields are left out; an empty required field is reported as missing.
 */
export function checkForm(form: ElicitationForm, requestedSchema: unknown, values: FormValues): FormCheck {
  const content: FormCheck["content"] = {};
  const errors: Record<string, string> = {};
  for (const f of form.fields) {
    const raw = values[f.name];
    if (f.kind === "unsupported") {
      if (f.required) errors[f.name] = `cannot be filled in a form (${f.reason})`;
      continue;
    }
    if (f.kind === "boolean") {
      content[f.name] = raw === true;
      continue;
    }
    if (f.kind === "multiselect") {
      const chosen = Array.isArray(raw) ? raw : [];
      if (chosen.length > 0 || f.required) content[f.name] = chosen;
      continue;
    }
    const text = typeof raw === "string" ? raw : "";
    if (text.trim() === "") {
      if (f.required) errors[f.name] = "required";
      continue;
    }
    if (f.kind === "number") {
      const n = Number(text.trim());
      if (!Number.isFinite(n)) errors[f.name] = "must be a number";
      else if (f.integer && !Number.isInteger(n)) errors[f.name] = "must be a whole number";
      else content[f.name] = n;
      continue;
    }
    content[f.name] = f.kind === "text" && f.format === "date-time" ? toDateTime(text) : text;
  }
  const verdict = validateAgainst(requestedSchema, content);
  for (const d of verdict.diagnostics) {
    const name = d.keyword === "required" ? String(d.params?.missingProperty ?? "") : unescapeToken(d.pointer.split("/")[1] ?? "");
    if (!name || errors[name]) continue;
    errors[name] = d.keyword === "required" ? "required" : stripSubject(d.message, name);
  }
  const ok = Object.keys(errors).length === 0 && (verdict.ok || verdict.schemaError !== undefined);
  return { ok, content, errors };
}

/** "status must be one of …" → "must be one of …" (the field label already names it). */
function stripSubject(message: string, name: string): string {
  return message.startsWith(`${name} `) ? message.slice(name.length + 1) : message;
}
