/**
 * An elicitation form from a `requestedSchema` (MCP 2026-07-28, client/elicitation). The form itself is the one every
 * schema gets (lib/forms); this module adds what elicitation asks for on top: warnings when the schema leaves the
 * spec's restricted subset (a flat object of primitives: string with optional format, number/integer, boolean,
 * single- and multi-select enums, titled or not), the starting content with the schema's defaults filled in
 * (SEP-1034), and whether the content may be sent.
 */
import { isObject } from "../../json/guards.ts";
import { buildFormModel, type FormModel } from "../../forms/form-model.ts";
import { fillDefaults } from "../../forms/form-value.ts";
import { formErrors, type FormErrors } from "../../forms/form-errors.ts";

/** Whether `schema` is one of the subset's property kinds; otherwise why not. */
function subsetProblem(schema: unknown): string | undefined {
  if (!isObject(schema)) return "the property schema is not an object";
  const type = schema.type;
  if (type === "string" || type === "number" || type === "integer" || type === "boolean") return undefined;
  if (type === "array") {
    const items = isObject(schema.items) ? schema.items : undefined;
    const choices = items && (Array.isArray(items.enum) || Array.isArray(items.anyOf) || Array.isArray(items.oneOf));
    return choices ? undefined : "arrays are allowed only as a multi-select of string options";
  }
  if (type === "object") return "nested objects are not allowed in an elicitation form";
  return `unsupported type ${JSON.stringify(type ?? null)}`;
}

/**
 * What in a requested schema is outside the spec's restricted subset, one sentence each. The form still shows such
 * parts (as fields, or as JSON), so the user can answer what the server asked.
 */
export function elicitationWarnings(requestedSchema: unknown): string[] {
  if (!isObject(requestedSchema)) return ["The requested schema is not an object."];
  const warnings: string[] = [];
  if (requestedSchema.type !== "object")
    warnings.push(`The requested schema should have "type": "object", not ${JSON.stringify(requestedSchema.type ?? null)}.`);
  const properties = isObject(requestedSchema.properties) ? requestedSchema.properties : {};
  const required = Array.isArray(requestedSchema.required)
    ? requestedSchema.required.filter((r): r is string => typeof r === "string")
    : [];
  for (const [name, schema] of Object.entries(properties)) {
    const problem = subsetProblem(schema);
    if (problem) warnings.push(`${isObject(schema) && typeof schema.title === "string" ? schema.title : name}: ${problem}.`);
  }
  for (const name of required) if (!(name in properties)) warnings.push(`"${name}" is required but has no property schema.`);
  return warnings;
}

/** The form model of a requested schema (built once per request by the dialog). */
export function elicitationModel(requestedSchema: unknown): FormModel {
  return buildFormModel(requestedSchema);
}

/** The content the form starts with: every property's default (SEP-1034), nothing else. */
export function initialContent(model: FormModel): Record<string, unknown> {
  const filled = fillDefaults(model, {});
  return isObject(filled) ? filled : {};
}

export interface ContentCheck {
  ok: boolean;
  errors: FormErrors;
}

/**
 * Whether the content may be sent: no schema error (a required field left empty, a required yes/no not answered
 * yet…) and no field holding text that is not a value yet (`pending`). An uncompilable schema does not block the
 * answer: the server asked, the user answers, the server judges.
 */
export function checkContent(model: FormModel, content: Record<string, unknown>, pending: ReadonlyMap<string, string>): ContentCheck {
  const errors = formErrors(model, content);
  const schemaOk = !errors.checked || (errors.top.length === 0 && Object.keys(errors.byField).length === 0);
  return { ok: schemaOk && pending.size === 0, errors };
}
