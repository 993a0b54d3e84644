/**
 * The JSON Schema (2020-12) of the collection file. The parser validates with it (lib/schema's ajv), and
 * docs/collection.schema.json is this object written by `node --import tsx scripts/write-collection-schema.ts`
 * (collection-schema.test.ts fails when the two differ). Kept here rather than read from docs/ so the browser bundle
 * and the packed CLI carry it without a file read.
 *
 * Each expectation kind is an `if kind = … then {its shape}` branch instead of a `oneOf`: ajv then reports the one
 * branch that applies, not every branch that failed.
 */
import { COLLECTION_FORMAT, type ExpectationKind } from "./format.ts";

const pointer = { type: "string", pattern: "^(/.*)?$", description: "A JSON pointer (RFC 6901) into the JSON-RPC response." };
const pattern = { type: "string", description: "A regular expression (JavaScript syntax)." };
const flags = { type: "string", pattern: "^[imsu]*$", description: "Regular expression flags: i, m, s, u." };

/** The members of each expectation kind besides `kind` (required ones listed in `required`). */
const KINDS: Record<ExpectationKind, { properties: Record<string, unknown>; required?: string[]; description: string }> = {
  "no-error": { properties: {}, description: "The answer is not a JSON-RPC error." },
  error: { properties: { code: { type: "integer" } }, description: "The answer is a JSON-RPC error, with this code when given." },
  "is-error": { properties: { value: { type: "boolean" } }, required: ["value"], description: "result.isError is this value." },
  "output-schema": { properties: {}, description: "result.structuredContent is valid against the tool's outputSchema." },
  schema: {
    properties: { schema: { type: ["object", "boolean"] }, pointer },
    required: ["schema"],
    description: "The value at pointer (default /result/structuredContent) is valid against schema.",
  },
  equals: { properties: { pointer, value: {} }, required: ["pointer", "value"], description: "The value at pointer equals value." },
  matches: {
    properties: { pointer, pattern, flags },
    required: ["pointer", "pattern"],
    description: "The value at pointer is a string matching pattern.",
  },
  present: { properties: { pointer }, required: ["pointer"], description: "Something is at pointer." },
  absent: { properties: { pointer }, required: ["pointer"], description: "Nothing is at pointer." },
  "text-contains": { properties: { text: { type: "string" } }, required: ["text"], description: "A text block contains text." },
  "text-matches": { properties: { pattern, flags }, required: ["pattern"], description: "A text block matches pattern." },
  "tool-listed": {
    properties: { tool: { type: "string", minLength: 1 }, listed: { type: "boolean" } },
    required: ["tool"],
    description: "tools/list has (or, with listed: false, has not) this tool.",
  },
  latency: { properties: { maxMs: { type: "integer", minimum: 1 } }, required: ["maxMs"], description: "The call took at most maxMs." },
  unchanged: {
    properties: { recorded: {}, pointer, volatile: { type: "array", items: pointer, uniqueItems: true } },
    required: ["recorded"],
    description: "The value at pointer (default /result) equals recorded, apart from the volatile pointers.",
  },
};

export const EXPECTATION_KINDS = Object.keys(KINDS) as ExpectationKind[];

const expectation = {
  type: "object",
  required: ["kind"],
  properties: { kind: { enum: EXPECTATION_KINDS } },
  allOf: EXPECTATION_KINDS.map((kind) => ({
    if: { properties: { kind: { const: kind } }, required: ["kind"] },
    then: {
      description: KINDS[kind].description,
      properties: { kind: true, ...KINDS[kind].properties },
      ...(KINDS[kind].required ? { required: KINDS[kind].required } : {}),
      additionalProperties: false,
    },
  })),
};

const variableName = "^[A-Za-z_][A-Za-z0-9_.-]*$";

export const COLLECTION_SCHEMA = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  $id: "https://toolscope.dev/schemas/collection-1.json",
  title: "Toolscope collection",
  description: "Saved MCP calls with expectations, run in order by the playground's runner and by `toolscope test`.",
  type: "object",
  required: ["format", "name", "calls"],
  additionalProperties: false,
  properties: {
    format: { const: COLLECTION_FORMAT },
    name: { type: "string", minLength: 1 },
    description: { type: "string" },
    environment: {
      type: "object",
      additionalProperties: false,
      properties: {
        server: { type: "string", pattern: "^https?://" },
        headers: {
          type: "array",
          uniqueItems: true,
          description: "Header names only: their values come from the runner, never from the file.",
          items: { type: "string", pattern: "^[!#$%&'*+.^_`|~0-9A-Za-z-]+$" },
        },
        variables: { type: "object", propertyNames: { pattern: variableName } },
      },
    },
    calls: { type: "array", items: { $ref: "#/$defs/call" } },
  },
  $defs: {
    call: {
      type: "object",
      required: ["name", "request", "expect"],
      additionalProperties: false,
      properties: {
        name: { type: "string", minLength: 1 },
        request: {
          type: "object",
          required: ["method"],
          properties: { jsonrpc: { const: "2.0" }, method: { type: "string", minLength: 1 }, params: { type: "object" } },
        },
        expect: { type: "array", items: { $ref: "#/$defs/expectation" } },
        capture: { type: "object", propertyNames: { pattern: variableName }, additionalProperties: pointer },
        answers: { type: "object" },
        timeoutMs: { type: "integer", minimum: 1, maximum: 3_600_000 },
      },
    },
    expectation,
  },
} as const;
