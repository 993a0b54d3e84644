/**
 * The expectation editor's form, read from the collection format's own JSON Schema (lib/collections), so a field the
 * format gains shows up here without a second list: each kind's members become fields typed by their schema (a JSON
 * pointer, a list of pointers, JSON, text, a whole number, yes/no). Text typed into a field becomes the member's value
 * or a message saying what to change; a whole expectation is checked against the same schema `toolscope test` reads
 * files with, plus what a schema cannot say (a pattern that compiles, a schema that compiles).
 */
import { COLLECTION_SCHEMA, EXPECTATION_KINDS, type Expectation } from "../index.ts";
import { isObject } from "../../json/guards.ts";
import { compileSchema, validateAgainst } from "../../schema/validate.ts";

type Kind = Expectation["kind"];

export type FieldType = "pointer" | "pointers" | "json" | "text" | "integer" | "boolean";

export interface FieldSpec {
  name: string;
  type: FieldType;
  required: boolean;
}

interface KindBranch {
  description: string;
  properties: Record<string, unknown>;
  required?: readonly string[];
}

function branchOf(kind: Kind): KindBranch {
  for (const b of COLLECTION_SCHEMA.$defs.expectation.allOf) {
    const then = b.then as unknown as KindBranch;
    if ((b.if.properties.kind as { const: string }).const === kind) return then;
  }
  return { description: "", properties: {} };
}

function fieldType(schema: unknown): FieldType {
  if (!isObject(schema)) return "json";
  if (schema.type === "string" && schema.pattern === "^(/.*)?$") return "pointer";
  if (schema.type === "array" && isObject(schema.items) && schema.items.pattern === "^(/.*)?$") return "pointers";
  if (schema.type === "boolean") return "boolean";
  if (schema.type === "integer") return "integer";
  if (schema.type === "string") return "text";
  return "json";
}

export const KIND_OPTIONS: readonly Kind[] = EXPECTATION_KINDS;

/** What the kind checks, in the schema's words. */
export function kindDescription(kind: Kind): string {
  return branchOf(kind).description;
}

/** The fields of a kind besides `kind`, in the schema's order (required ones first). */
export function kindFields(kind: Kind): FieldSpec[] {
  const branch = branchOf(kind);
  const required = new Set(branch.required ?? []);
  return Object.entries(branch.properties)
    .filter(([name]) => name !== "kind")
    .map(([name, schema]) => ({ name, type: fieldType(schema), required: required.has(name) }))
    .sort((a, b) => Number(b.required) - Number(a.required));
}

/**
 * A new expectation of `kind`, filled from what the editor knows: the pointer the person was looking at, the value
 * there, the called tool, the last answer (for `unchanged`).
 */
export function defaultExpectation(
  kind: Kind,
  hint: { pointer?: string; value?: unknown; tool?: string; result?: unknown } = {},
): Expectation {
  const pointer = hint.pointer ?? "/result/structuredContent";
  switch (kind) {
    case "no-error":
    case "output-schema":
      return { kind };
    case "error":
      return { kind };
    case "is-error":
      return { kind, value: false };
    case "schema":
      return { kind, schema: { type: "object" } };
    case "equals":
      return { kind, pointer, value: hint.value ?? null };
    case "matches":
      return { kind, pointer, pattern: "^" };
    case "present":
    case "absent":
      return { kind, pointer };
    case "text-contains":
      return { kind, text: "" };
    case "text-matches":
      return { kind, pattern: "" };
    case "tool-listed":
      return { kind, tool: hint.tool ?? "" };
    case "latency":
      return { kind, maxMs: 1000 };
    case "unchanged":
      return { kind, recorded: hint.result ?? null };
  }
}

/** A member's value as the field shows it. */
export function fieldText(e: Expectation, field: FieldSpec): string {
  const value = (e as unknown as Record<string, unknown>)[field.name];
  if (value === undefined) return "";
  switch (field.type) {
    case "pointer":
    case "text":
      return String(value);
    case "pointers":
      return Array.isArray(value) ? value.join("\n") : "";
    case "integer":
      return String(value);
    case "boolean":
      return value === true ? "true" : "false";
    case "json":
      return JSON.stringify(value, null, 2) ?? "";
  }
}

export type FieldEdit = { ok: true; expectation: Expectation } | { ok: false; error: string };

/** The expectation with `field` set from `text` (an empty optional field removes the member), or what to change. */
export function withField(e: Expectation, field: FieldSpec, text: string): FieldEdit {
  const { [field.name]: _old, ...rest } = e as unknown as Record<string, unknown>;
  const set = (value: unknown): FieldEdit => ({ ok: true, expectation: { ...rest, [field.name]: value } as unknown as Expectation });
  const trimmed = text.trim();
  if (trimmed === "" && !field.required) return { ok: true, expectation: rest as unknown as Expectation };
  switch (field.type) {
    case "pointer":
      return trimmed === "" || trimmed.startsWith("/")
        ? set(trimmed)
        : { ok: false, error: `${field.name}: a JSON pointer starts with "/" (e.g. /result/structuredContent/id).` };
    case "pointers": {
      // One per line: a pointer may hold a comma (/labels/en,fr).
      const list = text
        .split("\n")
        .map((s) => s.trim())
        .filter(Boolean);
      const bad = list.find((p) => !p.startsWith("/"));
      return bad
        ? { ok: false, error: `${field.name}: ${JSON.stringify(bad)} is not a JSON pointer (start it with "/").` }
        : set([...new Set(list)]);
    }
    case "text":
      return set(text);
    case "integer":
      return /^-?\d+$/.test(trimmed) ? set(Number(trimmed)) : { ok: false, error: `${field.name}: a whole number, e.g. 500.` };
    case "boolean":
      return set(trimmed === "true");
    case "json":
      try {
        return set(JSON.parse(text));
      } catch {
        return {
          ok: false,
          error: `${field.name}: not JSON. Put a string in double quotes ("open"); numbers, true, false, null, objects and arrays as they are.`,
        };
      }
  }
}

const ONE_EXPECTATION = { $schema: COLLECTION_SCHEMA.$schema, $defs: COLLECTION_SCHEMA.$defs, $ref: "#/$defs/expectation" };

/** What is wrong with `e` as a collection file would hold it (empty: nothing). */
export function expectationProblems(e: Expectation): string[] {
  const verdict = validateAgainst(ONE_EXPECTATION, e);
  const problems = verdict.diagnostics.map((d) => `${d.pointer ? `${d.pointer.slice(1)}: ` : ""}${d.message}`);
  if (verdict.schemaError) problems.push(verdict.schemaError);
  if ((e.kind === "matches" || e.kind === "text-matches") && typeof e.pattern === "string") {
    try {
      new RegExp(e.pattern, e.flags);
    } catch (err) {
      problems.push(`pattern: not a regular expression (${(err as Error).message}).`);
    }
  }
  if (e.kind === "schema" && (typeof e.schema === "boolean" || isObject(e.schema))) {
    const compiled = compileSchema(e.schema);
    if ("error" in compiled) problems.push(`schema: ${compiled.error}`);
  }
  return problems;
}
