import type { ErrorObject } from "ajv";
import { unescapeToken } from "../json/pointer.ts";

/** The last segment of a JSON pointer, unescaped, for messages ("status must be …"). */
function subject(e: ErrorObject): string {
  const parts = e.instancePath.split("/").filter(Boolean);
  const last = parts.at(-1);
  return last === undefined ? "the value" : unescapeToken(last);
}

function list(values: unknown[]): string {
  return values.map((v) => (typeof v === "string" ? v : JSON.stringify(v))).join(", ");
}

/** A message a person understands, naming the field and what would be accepted. */
export function humanMessage(e: ErrorObject): string {
  const p = e.params as Record<string, unknown>;
  const who = subject(e);
  switch (e.keyword) {
    case "required":
      return `missing required property "${String(p.missingProperty)}"`;
    case "additionalProperties":
      return `unexpected property "${String(p.additionalProperty)}"; the schema allows no other properties`;
    case "unevaluatedProperties":
      return `unexpected property "${String(p.unevaluatedProperty)}"`;
    case "enum":
      return `${who} must be one of ${list((p.allowedValues as unknown[]) ?? [])}`;
    case "const":
      return `${who} must be ${JSON.stringify(p.allowedValue)}`;
    case "type":
      return `${who} must be ${Array.isArray(p.type) ? (p.type as string[]).join(" or ") : String(p.type)}`;
    case "minimum":
    case "maximum":
    case "exclusiveMinimum":
    case "exclusiveMaximum":
      return `${who} must be ${String(p.comparison)} ${String(p.limit)}`;
    case "minLength":
      return `${who} must be at least ${String(p.limit)} characters long`;
    case "maxLength":
      return `${who} must be at most ${String(p.limit)} characters long`;
    case "minItems":
      return `${who} must have at least ${String(p.limit)} items`;
    case "maxItems":
      return `${who} must have at most ${String(p.limit)} items`;
    case "pattern":
      return `${who} must match the pattern ${String(p.pattern)}`;
    case "format":
      return `${who} must be a valid ${String(p.format)}`;
    case "oneOf":
      return p.passingSchemas
        ? `${who} matches more than one of the allowed shapes (oneOf); it must match exactly one`
        : `${who} matches none of the allowed shapes (oneOf)`;
    case "anyOf":
      return `${who} matches none of the allowed shapes (anyOf)`;
    case "not":
      return `${who} must not match the excluded shape (not)`;
    case "uniqueItems":
      return `${who} must not contain duplicates (items ${String(p.j)} and ${String(p.i)} are equal)`;
    case "multipleOf":
      return `${who} must be a multiple of ${String(p.multipleOf)}`;
    default:
      return `${who} ${e.message ?? `fails ${e.keyword}`}`;
  }
}
