import Ajv2020 from "ajv/dist/2020.js";
import AjvDraft07 from "ajv";
import type { ErrorObject, ValidateFunction } from "ajv";
import addFormats from "ajv-formats";
import { humanMessage } from "./messages.ts";
import { escapeToken } from "../json/pointer.ts";

/** One schema violation, as data. `pointer` is a JSON pointer into the validated instance. */
export interface SchemaDiagnostic {
  pointer: string;
  keyword: string;
  message: string;
  /** True when the problem is the property key itself (an unexpected property), not its value. */
  onKey?: boolean;
  params?: Record<string, unknown>;
}

export interface ValidationResult {
  ok: boolean;
  diagnostics: SchemaDiagnostic[];
  /** Set when the schema itself could not be compiled: its own diagnostic, never a crash. */
  schemaError?: string;
}

const DRAFT_07 = /json-schema\.org\/draft-0[4-7]\/schema/;

type AnyAjv = InstanceType<typeof Ajv2020> | InstanceType<typeof AjvDraft07>;

function makeAjv(draft07: boolean): AnyAjv {
  // strict:false because tool schemas in the wild use union types and unknown keywords (x-mcp-header).
  const options = { strict: false, allErrors: true, validateFormats: true, loadSchema: undefined };
  const ajv = draft07 ? new AjvDraft07(options) : new Ajv2020(options);
  (addFormats as unknown as (a: AnyAjv) => void)(ajv);
  return ajv;
}

let ajv2020: AnyAjv | undefined;
let ajv07: AnyAjv | undefined;
/** Compiled validators keyed by the schema's canonical text, so re-validating on each keystroke is cheap. */
const compiled = new Map<string, ValidateFunction | { error: string }>();
/** Bound on the validator cache: tool schemas come from untrusted servers. */
export const MAX_COMPILED_SCHEMAS = 500;

function ajvFor(schema: unknown): AnyAjv {
  const declared = typeof schema === "object" && schema !== null ? (schema as { $schema?: unknown }).$schema : undefined;
  if (typeof declared === "string" && DRAFT_07.test(declared)) return (ajv07 ??= makeAjv(true));
  return (ajv2020 ??= makeAjv(false));
}

/** The same schema object seen again (every keystroke) skips even the serialisation of the text key. */
const byIdentity = new WeakMap<object, ValidateFunction | { error: string }>();

/** Compile (or fetch from cache) a validator; an uncompilable schema yields an error string. */
export function compileSchema(schema: unknown): ValidateFunction | { error: string } {
  if (typeof schema === "object" && schema !== null) {
    const known = byIdentity.get(schema);
    if (known) return known;
    const entry = compileByText(schema);
    byIdentity.set(schema, entry);
    return entry;
  }
  return compileByText(schema);
}

function compileByText(schema: unknown): ValidateFunction | { error: string } {
  const key = JSON.stringify(schema);
  const hit = compiled.get(key);
  if (hit) return hit;
  let entry: ValidateFunction | { error: string };
  try {
    if (typeof schema !== "object" && typeof schema !== "boolean") throw new Error("a schema must be an object or a boolean");
    // Strip $id so two tools with the same $id don't collide in ajv's registry.
    const copy = typeof schema === "object" && schema !== null ? { ...(schema as object), $id: undefined } : schema;
    entry = ajvFor(schema).compile(copy as object);
  } catch (err) {
    entry = { error: `The schema cannot be compiled: ${(err as Error).message}` };
  }
  if (compiled.size >= MAX_COMPILED_SCHEMAS) compiled.delete(compiled.keys().next().value as string);
  compiled.set(key, entry);
  return entry;
}

/** Validate `instance` against `schema` (JSON Schema 2020-12 unless it declares draft-07). */
export function validateAgainst(schema: unknown, instance: unknown): ValidationResult {
  const validator = compileSchema(schema);
  if ("error" in validator) return { ok: false, diagnostics: [], schemaError: validator.error };
  if (validator(instance)) return { ok: true, diagnostics: [] };
  return { ok: false, diagnostics: toDiagnostics(validator.errors ?? []) };
}

/** Convert ajv errors to diagnostics with messages people understand (deduplicated). */
export function toDiagnostics(errors: ErrorObject[]): SchemaDiagnostic[] {
  const out: SchemaDiagnostic[] = [];
  const seen = new Set<string>();
  for (const e of errors) {
    // oneOf/anyOf report every failing branch and then a summary; keep only the summary for branch noise.
    if (e.keyword === "if") continue;
    const d = toDiagnostic(e);
    const key = `${d.pointer}|${d.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(d);
  }
  return out;
}

function toDiagnostic(e: ErrorObject): SchemaDiagnostic {
  const params = e.params as Record<string, unknown>;
  if (e.keyword === "additionalProperties" || e.keyword === "unevaluatedProperties") {
    const prop = String(params.additionalProperty ?? params.unevaluatedProperty);
    return { pointer: `${e.instancePath}/${escapePointer(prop)}`, keyword: e.keyword, message: humanMessage(e), onKey: true, params };
  }
  return { pointer: e.instancePath, keyword: e.keyword, message: humanMessage(e), params };
}

/** Escape one key as a JSON pointer token (kept for callers of this module; see lib/json/pointer.ts). */
export const escapePointer = escapeToken;
