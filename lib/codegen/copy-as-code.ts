/**
 * "Copy as code": the request in the editor as a curl command, a `fetch` call, or a TypeScript snippet using
 * `@modelcontextprotocol/client`. The HTTP forms carry the headers the SDK transport would put on the POST
 * (../mcp/wire-headers.ts, checked against the real SDK, and `Mcp-Param-*` from ../mcp/x-mcp-header.ts): on
 * 2026-07-28 the `_meta` envelope plus `MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name` and `Mcp-Param-*`; on legacy
 * sessions `MCP-Protocol-Version` and `Mcp-Session-Id`. A server on the deprecated HTTP+SSE transport gets a short
 * program instead of one request (./copy-as-sse.ts): there the answer comes on an event stream, not in the POST's
 * response. The user's own headers appear by name only, as environment-variable placeholders: their values
 * (credentials) are never part of a snippet.
 */
import type { Era, Tool } from "../mcp/contract.ts";
import { clientCapabilities, stampMessage } from "../mcp/meta.ts";
import type { TaskWire } from "../mcp/tasks/task-shapes.ts";
import { taskLoopLines } from "./copy-task-loop.ts";
import { contentHeaders, transportMcpHeaders } from "../mcp/wire-headers.ts";
import { mirroredParamHeaders } from "../mcp/x-mcp-header.ts";
import { sseFetchSnippet, sseShellScript } from "./copy-as-sse.ts";
import { isObject } from "../json/guards.ts";
import { curlHeader, envName, indentJson, jsHeaders, shellQuote, type HeaderValue } from "./code-text.ts";

export { envName, shellQuote } from "./code-text.ts";

export interface CodeInput {
  /** The server's HTTP endpoint (for the demo, its public URL). */
  endpoint: string;
  era: Era;
  /** The negotiated protocol version (sent as MCP-Protocol-Version). */
  protocolVersion: string;
  /** Legacy sessions: the Mcp-Session-Id. */
  sessionId?: string;
  /** `"sse"`: the server speaks the deprecated HTTP+SSE transport (`endpoint` is its event-stream URL). */
  transport?: "sse";
  /** The message as the user wrote it. */
  message: Record<string, unknown>;
  /** The called tool (tools/call), for `Mcp-Param-*` mirroring. */
  tool?: Pick<Tool, "inputSchema">;
  /** Names of the headers the user configured (Authorization…): shown as placeholders. */
  userHeaderNames?: readonly string[];
  /** The call may become a task (2026-07-28: the extension declared; 2025-11-25: `params.task`): add the polling loop. */
  tasks?: boolean;
}

/** Which task wire the snippet follows, if any: only a tools/call, and only on Streamable HTTP. */
function taskWire(input: CodeInput): TaskWire | undefined {
  if (!input.tasks || input.transport === "sse" || input.message.method !== "tools/call") return undefined;
  if (input.era === "modern") return "extension";
  return isObject(input.message.params) && isObject(input.message.params.task) ? "experimental" : undefined;
}

export type CodeLanguage = "curl" | "fetch" | "typescript";

/** The message as it goes on the wire and the headers the era requires, in a stable order. */
export function wireRequest(input: CodeInput): { body: Record<string, unknown>; headers: [string, HeaderValue][] } {
  let counter = 0;
  const { message: body } = stampMessage(
    input.message,
    input.era,
    () => ++counter,
    clientCapabilities(true, taskWire(input) === "extension"),
  );
  const sse = input.transport === "sse";
  const headers: [string, HeaderValue][] = [
    ...contentHeaders(sse ? "sse" : "streamable"),
    ...transportMcpHeaders(body, { era: input.era, protocolVersion: input.protocolVersion, sessionId: input.sessionId, sse }),
    ...Object.entries(mirroredParamHeaders(body, input.era, input.tool)),
  ];
  const taken = new Set(headers.map(([h]) => h.toLowerCase()));
  for (const name of input.userHeaderNames ?? []) if (!taken.has(name.toLowerCase())) headers.push([name, { env: envName(name) }]);
  return { body, headers };
}

/** A curl command; placeholders expand from the environment (`"Authorization: $AUTHORIZATION"`). */
export function curlCommand(input: CodeInput): string {
  const { body, headers } = wireRequest(input);
  if (input.transport === "sse") return sseShellScript({ url: input.endpoint, body, headers, protocolVersion: input.protocolVersion });
  const lines = [`curl -sS -X POST ${shellQuote(input.endpoint)}`];
  for (const [name, value] of headers) lines.push(curlHeader(name, value));
  lines.push(`--data-raw ${shellQuote(JSON.stringify(body))}`);
  return lines.join(" \\\n  ");
}

/** A `fetch` call (Node 18+ or a browser); reads JSON or the SSE stream's message events. */
export function fetchSnippet(input: CodeInput): string {
  const { body, headers } = wireRequest(input);
  if (input.transport === "sse") return sseFetchSnippet({ url: input.endpoint, body, headers, protocolVersion: input.protocolVersion });
  const wire = taskWire(input);
  // With a task loop the headers are a variable its polls reuse (the per-call routing headers replaced there).
  const routing = new Set(["mcp-method", "mcp-name"]);
  return [
    ...(wire
      ? [
          `const headers = {`,
          jsHeaders(
            headers.filter(([n]) => !routing.has(n.toLowerCase()) && !n.toLowerCase().startsWith("mcp-param-")),
            "  ",
          ),
          `};`,
        ]
      : []),
    `const res = await fetch(${JSON.stringify(input.endpoint)}, {`,
    `  method: "POST",`,
    `  headers: {`,
    ...(wire
      ? [
          `    ...headers,`,
          jsHeaders(
            headers.filter(([n]) => routing.has(n.toLowerCase()) || n.toLowerCase().startsWith("mcp-param-")),
            "    ",
          ),
        ]
      : [jsHeaders(headers, "    ")]),
    `  },`,
    `  body: JSON.stringify(${indentJson(body, "  ")}),`,
    `});`,
    `// The server answers with JSON, or with an SSE stream whose "message" events carry the response.`,
    `const answer = res.headers.get("content-type")?.includes("text/event-stream") ? await res.text() : await res.json();`,
    `console.log(res.status, answer);`,
    ...(wire ? taskLoopLines(wire, input.endpoint, isObject(body.params) ? body.params._meta : undefined) : []),
  ].join("\n");
}

const SDK_CALLS: Record<string, (p: Record<string, unknown>) => string> = {
  "tools/call": (p) =>
    `client.callTool(${indentJson({ name: p.name, ...(p.arguments !== undefined ? { arguments: p.arguments } : {}) }, "")})`,
  "tools/list": () => "client.listTools()",
  "prompts/list": () => "client.listPrompts()",
  "prompts/get": (p) =>
    `client.getPrompt(${indentJson({ name: p.name, ...(p.arguments !== undefined ? { arguments: p.arguments } : {}) }, "")})`,
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
  const sse = input.transport === "sse";
  const transportClass = sse ? "SSEClientTransport" : "StreamableHTTPClientTransport";
  return [
    `import { Client, ${transportClass} } from "@modelcontextprotocol/client";`,
    ``,
    ...(sse
      ? [
          `// Deprecated HTTP+SSE transport (2024-11-05): the SDK opens the event stream, POSTs to the endpoint it names and\n// reads the answers from the stream; your headers go on both.`,
        ]
      : []),
    `const transport = new ${transportClass}(new URL(${JSON.stringify(input.endpoint)})${userHeaders.length ? `, {\n  requestInit: {\n    headers: {\n${jsHeaders(userHeaders, "      ")}\n    },\n  },\n}` : ""});`,
    input.era === "modern"
      ? `// Pins protocol 2026-07-28 (stateless); the SDK adds _meta and the Mcp-* headers to every request.\nconst client = new Client({ name: "my-client", version: "1.0.0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });`
      : `// A legacy (initialize + ${sse ? "event stream" : "Mcp-Session-Id"}) session; the SDK negotiates the version.\nconst client = new Client({ name: "my-client", version: "1.0.0" });`,
    `await client.connect(transport);`,
    ...(method === "tools/call" || method === "prompts/get" || method === "resources/read"
      ? [
          `// Input requests (elicitation, sampling, roots) are answered by handlers, e.g. client.setRequestHandler("elicitation/create", …).`,
        ]
      : []),
    ...(taskWire(input)
      ? [
          `// This call may come back as a task. SDK 2.4's callTool cannot take a task handle (it rejects resultType "task");`,
          `// the fetch snippet shows the polling loop (tasks/get at the server's interval, tasks/update, tasks/result).`,
        ]
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
