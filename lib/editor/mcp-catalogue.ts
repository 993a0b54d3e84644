/**
 * The MCP method catalogue per era, derived from the vendored spec schemas (see MCP_SCHEMA_SOURCES.md),
 * so the editor's method list, hovers and params checks can never drift from the spec text.
 */
import modernSchema from "./mcp-schema-2026-07-28.json" with { type: "json" };
import legacySchema from "./mcp-schema-2025-11-25.json" with { type: "json" };

export type EditorEra = "modern" | "legacy";

/** The protocol revision each era's schema describes. */
export const ERA_VERSION: Record<EditorEra, string> = { modern: "2026-07-28", legacy: "2025-11-25" };

export interface McpSchemaDoc {
  $schema: string;
  $defs: Record<string, Record<string, unknown>>;
}

export interface MethodInfo {
  method: string;
  kind: "request" | "notification";
  /** The `$defs` name of the whole message, e.g. `CallToolRequest`. */
  definition: string;
  /** The `$defs` name of its params, e.g. `CallToolRequestParams`, when it is a `$ref`. */
  paramsDefinition?: string;
  /** First paragraph of the definition's description, `{@link}` tags flattened. */
  summary: string;
}

/** The spec schema (`$schema` + `$defs`) for an era. */
export function mcpSchema(era: EditorEra): McpSchemaDoc {
  return (era === "modern" ? modernSchema : legacySchema) as unknown as McpSchemaDoc;
}

function refName(ref: unknown): string | undefined {
  return typeof ref === "string" && ref.startsWith("#/$defs/") ? ref.slice("#/$defs/".length) : undefined;
}

/** `{@link CallToolRequest tools/call}` (or the spec's squashed `{@link CallToolRequesttools/call}`) → `tools/call`. */
export function flattenLinks(text: string, defs: Record<string, unknown>): string {
  return text.replace(/\{@link\s+([^}]*)\}/g, (_m, inner: string) => {
    const parts = inner.trim().split(/\s*\|\s*|\s+/);
    if (parts.length > 1) return parts.slice(1).join(" ");
    const whole = parts[0];
    // Longest def name that prefixes the squashed text.
    let best = "";
    for (const name of Object.keys(defs)) if (whole.startsWith(name) && name.length > best.length) best = name;
    return best && whole.length > best.length ? whole.slice(best.length) : whole;
  });
}

function firstParagraph(text: string): string {
  return text
    .split(/\n\s*\n/)[0]
    .replace(/\s*\n\s*/g, " ")
    .trim();
}

/** Client-sent message definitions: the members of ClientRequest and ClientNotification. */
function clientDefinitions(doc: McpSchemaDoc): string[] {
  const names: string[] = [];
  for (const union of ["ClientRequest", "ClientNotification"]) {
    const def = doc.$defs[union];
    if (!def) continue;
    const members = Array.isArray(def.anyOf) ? (def.anyOf as { $ref?: string }[]).map((m) => refName(m.$ref)) : [union];
    for (const m of members) if (m) names.push(m === union && !Array.isArray(def.anyOf) ? union : m);
  }
  return names;
}

const catalogues = new Map<EditorEra, MethodInfo[]>();

/** All methods a client may send in `era`, requests first, in the spec's order. */
export function methodCatalogue(era: EditorEra): MethodInfo[] {
  const cached = catalogues.get(era);
  if (cached) return cached;
  const doc = mcpSchema(era);
  const out: MethodInfo[] = [];
  for (const definition of clientDefinitions(doc)) {
    const def = doc.$defs[definition];
    const props = (def?.properties ?? {}) as Record<string, Record<string, unknown>>;
    const method = props.method?.const;
    if (typeof method !== "string") continue;
    // The modern ClientNotification is itself the cancelled notification (a single member, not a union).
    const kind = method.startsWith("notifications/") ? "notification" : "request";
    const description = typeof def.description === "string" ? def.description : "";
    out.push({
      method,
      kind,
      definition,
      paramsDefinition: refName(props.params?.$ref),
      summary: firstParagraph(flattenLinks(description, doc.$defs)),
    });
  }
  catalogues.set(era, out);
  return out;
}

/** The catalogue entry for `method` in `era`, if MCP defines it for clients. */
export function methodInfo(era: EditorEra, method: string): MethodInfo | undefined {
  return methodCatalogue(era).find((m) => m.method === method);
}

/** The params definition (resolved one level) of a method, for key completion and hovers. */
export function paramsSchema(era: EditorEra, method: string): Record<string, unknown> | undefined {
  const info = methodInfo(era, method);
  if (!info) return undefined;
  const doc = mcpSchema(era);
  if (info.paramsDefinition) return doc.$defs[info.paramsDefinition];
  const inline = (doc.$defs[info.definition]?.properties as Record<string, unknown> | undefined)?.params;
  return typeof inline === "object" && inline !== null ? (inline as Record<string, unknown>) : undefined;
}

/** The other era, for "this method belongs to the other revision" hints. */
export function otherEra(era: EditorEra): EditorEra {
  return era === "modern" ? "legacy" : "modern";
}
