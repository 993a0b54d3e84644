/**
 * "Copy as code": the request in the editor as a curl command, a `fetch` call, or a TypeScript snippet using
 * `@modelcontextprotocol/client`. The HTTP forms carry what the wire needs for the era: on 2026-07-28 the `_meta`
 * envelope plus `MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name` and `Mcp-Param-*`; on legacy sessions
 * `MCP-Protocol-Version` and `Mcp-Session-Id`. The user's own headers appear by name only, as environment-variable
 * placeholders: their values (credentials) are never part of a snippet.
 */
import type { Era, Tool } from "../mcp/contract.ts";
import { stampMessage } from "../mcp/meta.ts";
import { encodeHeaderValue, paramHeaders, scanHeaderDeclarations } from "../mcp/x-mcp-header.ts";

export interface CodeInput {
  /** The server's HTTP endpoint (for the demo, its public URL). */
  endpoint: string;
  era: Era;
  /** The negotiated protocol version (sent as MCP-Protocol-Version). */
  protocolVersion: string;
  /** Legacy sessions: the Mcp-Session-Id. */
  sessionId?: string;
  /** The message as the user wrote it. */
  message: Record<string, unknown>;
  /** The called tool (tools/call), for `Mcp-Param-*` mirroring. */
  tool?: Pick<Tool, "inputSchema">;
  /** Names of the headers the user configured (Authorization…): shown as placeholders. */
  userHeaderNames?: readonly string[];
}

export type CodeLanguage = "curl" | "fetch" | "typescript";

/** A header whose value the reader supplies: `env` names the environment variable. */
interface Placeholder {
  env: string;
}
type HeaderValue = string | Placeholder;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** `Authorization` → `AUTHORIZATION`, `X-Api-Key` → `X_API_KEY`. */
export function envName(header: string): string {
  const name = header.toUpperCase().replace(/[^A-Z0-9]+/g, "_").replace(/^_+|_+$/g, "");
  return /^[0-9]/.test(name) ? `H_${name}` : name || "HEADER";
}

/** Quote for a POSIX shell: single quotes, with embedded ones closed, escaped and reopened. */
export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/** The message as it goes on the wire and the headers the era requires, in a stable order. */
export function wireRequest(input: CodeInput): { body: Record<string, unknown>; headers: [string, HeaderValue][] } {
  let counter = 0;
  const { message: body } = stampMessage(input.message, input.era, () => ++counter);
  const headers: [string, HeaderValue][] = [
    ["Content-Type", "application/json"],
    ["Accept", "application/json, text/event-stream"],
    ["MCP-Protocol-Version", input.protocolVersion],
  ];
  const method = typeof body.method === "string" ? body.method : undefined;
  const params = isObject(body.params) ? body.params : {};
  if (input.era === "modern" && method) {
    headers.push(["Mcp-Method", method]);
    const name = method === "resources/read" ? params.uri : method === "tools/call" || method === "prompts/get" ? params.name : undefined;
    if (typeof name === "string") headers.push(["Mcp-Name", encodeHeaderValue(name)]);
    if (method === "tools/call" && input.tool) {
      const mirrored = paramHeaders(scanHeaderDeclarations(input.tool.inputSchema).declarations, params.arguments);
      for (const [h, v] of Object.entries(mirrored)) headers.push([h, v]);
    }
  }
  if (input.era === "legacy" && input.sessionId) headers.push(["Mcp-Session-Id", input.sessionId]);
  const taken = new Set(headers.map(([h]) => h.toLowerCase()));
  for (const name of input.userHeaderNames ?? []) if (!taken.has(name.toLowerCase())) headers.push([name, { env: envName(name) }]);
  return { body, headers };
}

/** A curl command; placeholders expand from the environment (`"Authorization: $AUTHORIZATION"`). */
export function curlCommand(input: CodeInput): string {
  const { body, headers } = wireRequest(input);
  const lines = [`curl -sS -X POST ${shellQuote(input.endpoint)}`];
  for (const [name, value] of headers) {
    // Header names are HTTP tokens (no quotes, no $), so double quotes are safe around a placeholder.
    lines.push(typeof value === "string" ? `-H ${shellQuote(`${name}: ${value}`)}` : `-H "${name}: $${value.env}"`);
  }
  lines.push(`--data-raw ${shellQuote(JSON.stringify(body))}`);
  return lines.join(" \\\n  ");
}

function jsHeaders(headers: [string, HeaderValue][], indent: string): string {
  return headers.map(([n, v]) => `${indent}${JSON.stringify(n)}: ${typeof v === "string" ? JSON.stringify(v) : `process.env.${v.env} ?? ""`},`).join("\n");
}

function indentJson(value: unknown, indent: string): string {
  return JSON.stringify(value, null, 2).replace(/\n/g, `\n${indent}`);
}

/** A `fetch` call (Node 18+ or a browser); reads JSON or the SSE stream's message events. */
export function fetchSnippet(input: CodeInput): string {
  const { body, headers } = wireRequest(input);
  return [
    `const res = await fetch(${JSON.stringify(input.endpoint)}, {`,
    `  method: "POST",`,
    `  headers: {`,
    jsHeaders(headers, "    "),
    `  },`,
    `  body: JSON.stringify(${indentJson(body, "  ")}),`,
    `});`,
    `// The server answers with JSON, or with an SSE stream whose "message" events carry the response.`,
    `const answer = res.headers.get("content-type")?.includes("text/event-stream") ? await res.text() : await res.json();`,
    `console.log(res.status, answer);`,
  ].join("\n");
}

const SDK_CALLS: Record<string, (p: Record<string, unknown>) => string> = {
  "tools/call": (p) => `client.callTool(${indentJson({ name: p.name, ...(p.arguments !== undefined ? { arguments: p.arguments } : {}) }, "")})`,
  "tools/list": () => "client.listTools()",
  "prompts/list": () => "client.listPrompts()",
  "prompts/get": (p) => `client.getPrompt(${indentJson({ name: p.name, ...(p.arguments !== undefined ? { arguments: p.arguments } : {}) }, "")})`,
  "resources/list": () => "client.listResources()",
  "resources/templates/list": () => "client.listResourceTemplates()",
  "resources/read": (p) => `client.readResource(${indentJson({ uri: p.uri }, "")})`,
  "completion/complete": (p) => `client.complete(${indentJson(stripMcpFields(p), "")})`,
};

/** The SDK fills `_meta`, inputResponses and requestState itself: leave them out of the call arguments. */
function stripMcpFields(params: Record<string, unknown>): Record<string, unknown> {
  const { _meta: _m, inputResponses: _i, requestState: _r, ...rest } = params;
  return rest;
}

/** A TypeScript program with `@modelcontextprotocol/client` (SDK v2) doing the same call. */
export function typescriptSnippet(input: CodeInput): string {
  const method = typeof input.message.method === "string" ? input.message.method : "vendor/method";
  const params = stripMcpFields(isObject(input.message.params) ? input.message.params : {});
  const call = SDK_CALLS[method]?.(params) ?? `client.request(${indentJson({ method, params }, "")})`;
  const userHeaders = (input.userHeaderNames ?? []).map((n) => [n, { env: envName(n) }] as [string, HeaderValue]);
  return [
    `import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";`,
    ``,
    `const transport = new StreamableHTTPClientTransport(new URL(${JSON.stringify(input.endpoint)})${userHeaders.length ? `, {\n  requestInit: {\n    headers: {\n${jsHeaders(userHeaders, "      ")}\n    },\n  },\n}` : ""});`,
    input.era === "modern"
      ? `// Pins protocol 2026-07-28 (stateless); the SDK adds _meta and the Mcp-* headers to every request.\nconst client = new Client({ name: "my-client", version: "1.0.0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });`
      : `// A legacy (initialize + Mcp-Session-Id) session; the SDK negotiates the version.\nconst client = new Client({ name: "my-client", version: "1.0.0" });`,
    `await client.connect(transport);`,
    ...(method === "tools/call" || method === "prompts/get" || method === "resources/read"
      ? [`// Input requests (elicitation, sampling, roots) are answered by handlers, e.g. client.setRequestHandler("elicitation/create", …).`]
      : []),
    `const result = await ${call};`,
    `console.log(result);`,
    `await client.close();`,
  ].join("\n");
}

/** The snippet for a language. */
export function codeFor(language: CodeLanguage, input: CodeInput): string {
  return language === "curl" ? curlCommand(input) : language === "fetch" ? fetchSnippet(input) : typescriptSnippet(input);
}
