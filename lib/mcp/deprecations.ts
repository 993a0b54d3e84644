/**
 * The features MCP 2026-07-28 lists as deprecated (the specification's registry, `specification/2026-07-28/deprecated`),
 * and where a server shows that it uses one. A deprecated feature still works: new servers should not adopt it and
 * existing ones should move off it before its earliest removal. Docs, the playground, the OAuth log and the lints all
 * word a deprecation from this one table, so the migration path and the date read the same everywhere.
 */
import { isObject } from "../json/guards.ts";

export type DeprecationId = "roots" | "sampling" | "logging" | "dynamic-client-registration" | "include-context" | "http-sse";

export interface Deprecation {
  id: DeprecationId;
  /** The feature, as a sentence's subject ("Logging", "The HTTP+SSE transport"). */
  feature: string;
  /** The revision that deprecated it. */
  since: string;
  /** The proposal that did. */
  by: string;
  /** The specification's migration path, as an instruction. */
  migration: string;
  /** The registry's earliest removal, in its words. */
  earliestRemoval: string;
  /** The specification's page on the feature. */
  href: string;
}

const SPEC = "https://modelcontextprotocol.io/specification";
const AFTER_2027 = "the first revision released on or after 2027-07-28";

export const DEPRECATIONS: Readonly<Record<DeprecationId, Deprecation>> = {
  roots: {
    id: "roots",
    feature: "Roots",
    since: "2026-07-28",
    by: "SEP-2577",
    migration: "pass directories or files in tool parameters, resource URIs or the server's configuration",
    earliestRemoval: AFTER_2027,
    href: `${SPEC}/2026-07-28/client/roots`,
  },
  sampling: {
    id: "sampling",
    feature: "Sampling",
    since: "2026-07-28",
    by: "SEP-2577",
    migration: "call a language model provider's API from the server directly",
    earliestRemoval: AFTER_2027,
    href: `${SPEC}/2026-07-28/client/sampling`,
  },
  logging: {
    id: "logging",
    feature: "Logging",
    since: "2026-07-28",
    by: "SEP-2577",
    migration: "log to stderr on stdio, and use OpenTelemetry for observability",
    earliestRemoval: AFTER_2027,
    href: `${SPEC}/2026-07-28/server/utilities/logging`,
  },
  "dynamic-client-registration": {
    id: "dynamic-client-registration",
    feature: "Dynamic Client Registration",
    since: "2026-07-28",
    by: "modelcontextprotocol PR #2858",
    migration: "offer Client ID Metadata Documents (client_id_metadata_document_supported) on the authorization server",
    earliestRemoval: AFTER_2027,
    href: `${SPEC}/2026-07-28/basic/authorization/client-registration`,
  },
  "include-context": {
    id: "include-context",
    feature: 'Sampling\'s includeContext "thisServer" and "allServers"',
    since: "2025-11-25",
    by: "SEP-2596",
    migration: 'leave includeContext out or send "none"',
    earliestRemoval: "with Sampling itself",
    href: `${SPEC}/2026-07-28/client/sampling`,
  },
  "http-sse": {
    id: "http-sse",
    feature: "The HTTP+SSE transport (2024-11-05)",
    since: "2025-03-26",
    by: "SEP-2596",
    migration: "serve Streamable HTTP (one endpoint for POST and GET)",
    earliestRemoval: "three months after SEP-2596 reaches Final",
    href: `${SPEC}/2026-07-28/basic/transports/streamable-http`,
  },
};

/** One plain sentence: what, since when, what to do instead, and when it may go. */
export function deprecationSentence(d: Deprecation): string {
  return `${d.feature} is deprecated since ${d.since} (${d.by}): ${d.migration}. It may be removed in ${d.earliestRemoval}.`;
}

/** What a server's own declaration shows of deprecated features: its capabilities and transport. */
export function serverDeprecations(server: { capabilities?: unknown; transport?: string }): Deprecation[] {
  const out: Deprecation[] = [];
  if (isObject(server.capabilities) && server.capabilities.logging !== undefined) out.push(DEPRECATIONS.logging);
  if (server.transport === "sse") out.push(DEPRECATIONS["http-sse"]);
  return out;
}

/** What a request from the server uses that is deprecated: roots, sampling and sampling's wide includeContext. */
export function serverRequestDeprecations(request: { method?: unknown; params?: unknown }): Deprecation[] {
  if (request.method === "roots/list") return [DEPRECATIONS.roots];
  if (request.method !== "sampling/createMessage") return [];
  const context = isObject(request.params) ? request.params.includeContext : undefined;
  return context === "thisServer" || context === "allServers"
    ? [DEPRECATIONS.sampling, DEPRECATIONS["include-context"]]
    : [DEPRECATIONS.sampling];
}
