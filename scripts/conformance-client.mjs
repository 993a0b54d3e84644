#!/usr/bin/env node
/**
 * Adapter between the official MCP conformance suite (`@modelcontextprotocol/conformance`, client scenarios)
 * and a RUNNING Toolscope: the suite starts a mock MCP server and runs
 *
 *   node scripts/conformance-client.mjs <server-url>
 *
 * with MCP_CONFORMANCE_SCENARIO (and MCP_CONFORMANCE_PROTOCOL_VERSION, MCP_CONFORMANCE_CONTEXT) set. This script
 * plays the browser: it drives Toolscope's HTTP API (TOOLSCOPE_URL, e.g. http://127.0.0.1:3100) exactly as the
 * playground does — connect, list tools, send JSON-RPC messages, answer MRTR `input_required` rounds — so the
 * proxy is the MCP client under test. Everything on the wire (headers, `_meta`, `Mcp-Param-*`, which tools may be
 * called) is the proxy's doing; this script only decides what a user would click.
 *
 * Plain Node ESM with no dependencies: runs on Node 20 and 22. Exit code 0 when every step the user took got an
 * answer from our API (a JSON-RPC error from the server is an answer); 1 on anything else.
 */

const serverUrl = process.argv[2];
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? "";
const protocolVersion = process.env.MCP_CONFORMANCE_PROTOCOL_VERSION ?? "2026-07-28";
const context = parseJson(process.env.MCP_CONFORMANCE_CONTEXT) ?? {};
const base = (process.env.TOOLSCOPE_URL ?? "http://127.0.0.1:3000").replace(/\/+$/, "");

/** Rounds (requests sent, the first included) before we stop answering input requests, as the playground does. */
const MAX_MRTR_ROUNDS = 8;

function parseJson(text) {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isObject(v) {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function log(...parts) {
  console.log(`[toolscope-conformance] ${parts.map((p) => (typeof p === "string" ? p : JSON.stringify(p))).join(" ")}`);
}

/** A failure of our own API (not a JSON-RPC error from the server, which is an answer). */
class ApiError extends Error {
  constructor(path, status, body) {
    super(`${path} → HTTP ${status}: ${JSON.stringify(body?.error ?? body).slice(0, 2000)}`);
    this.status = status;
    this.body = body;
  }
}

async function post(path, body) {
  const res = await fetch(`${base}${path}`, { method: "POST", headers: { "content-type": "application/json", origin: new URL(base).origin }, body: JSON.stringify(body) });
  const text = await res.text();
  const json = parseJson(text);
  if (!res.ok || json === undefined) throw new ApiError(path, res.status, json ?? text.slice(0, 2000));
  return json;
}

// ---------------------------------------------------------------------------------------------------------------
// The browser side of the playground: the descriptor kept between calls, ids the editor would use.

let connection;
let serverInfo;
let nextId = 1;

/** Dated versions through 2025-11-25 use the stateful lifecycle (legacy era); 2026-07-28 is the modern era. */
function eraFor(version) {
  return /^20(24|25)-/.test(version) ? "legacy" : "modern";
}

async function connect() {
  const era = eraFor(protocolVersion);
  const res = await post("/api/connect", { url: serverUrl, era });
  connection = res.connection;
  serverInfo = res.server;
  log("connected", { era: res.server.era, protocolVersion: res.server.protocolVersion, exchanges: res.exchanges?.length ?? 0 });
  return res;
}

async function listTools() {
  const res = await post("/api/tools", { connection });
  if (res.connection) connection = res.connection;
  log("tools", { callable: res.tools.map((t) => t.name), excluded: res.excluded.map((e) => `${e.tool.name} (${e.reason})`) });
  return res;
}

/** Send one message as the editor holds it; the proxy stamps what the protocol requires. */
async function rpc(message) {
  const res = await post("/api/rpc", { connection, message });
  if (res.connection) connection = res.connection;
  return res;
}

// ---------------------------------------------------------------------------------------------------------------
// What a user would type: arguments from a tool's inputSchema, answers to input requests.

/** A value that satisfies a (simple) schema, the way a user fills the form with sample values. */
function sampleValue(schema, name = "") {
  if (!isObject(schema)) return "test";
  if ("const" in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length) return schema.enum[0];
  if ("default" in schema) return schema.default;
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== "null") : schema.type;
  switch (type) {
    case "integer":
      return name === "b" ? 3 : 2;
    case "number":
      return name === "b" ? 3 : 2;
    case "boolean":
      return true;
    case "array":
      return [];
    case "null":
      return null;
    case "object":
      return sampleArguments(schema);
    default:
      return typeof schema.pattern === "string" && /a-z/.test(schema.pattern) ? "abc" : "test";
  }
}

/** Arguments for every required parameter of a tool (what the prefilled editor holds). */
function sampleArguments(schema) {
  const args = {};
  if (!isObject(schema) || !isObject(schema.properties)) return args;
  const required = Array.isArray(schema.required) ? schema.required : [];
  for (const key of required) if (key in schema.properties) args[key] = sampleValue(schema.properties[key], key);
  return args;
}

/** The user's answer to one input request: accept forms with sample values, reply to sampling, no roots. */
function answerInputRequest(request) {
  const method = isObject(request) ? request.method : undefined;
  const params = isObject(request?.params) ? request.params : {};
  if (method === "elicitation/create") {
    if (params.mode === "url") return { action: "accept" };
    const schema = isObject(params.requestedSchema) ? params.requestedSchema : {};
    const content = {};
    for (const [key, sub] of Object.entries(isObject(schema.properties) ? schema.properties : {})) content[key] = sampleValue(sub, key);
    return { action: "accept", content };
  }
  if (method === "sampling/createMessage") {
    return { role: "assistant", content: { type: "text", text: "A reply typed by the user." }, model: "toolscope-human", stopReason: "endTurn" };
  }
  if (method === "roots/list") return { roots: [] };
  return undefined;
}

function isInputRequired(response) {
  return isObject(response?.result) && response.result.resultType === "input_required";
}

/**
 * One request as the playground runs it: send, and while the server answers `input_required`, answer its
 * input requests and resend the same message with `params.inputResponses` and `params.requestState` exactly as
 * received (none when none came), under a fresh id. `between` runs after the first round (parallel isolation).
 */
async function runExchange(message, { between } = {}) {
  const original = { jsonrpc: "2.0", id: nextId++, ...message };
  let current = original;
  let res = await rpc(current);
  const rounds = [res];
  for (let round = 2; isInputRequired(res.response) && round <= MAX_MRTR_ROUNDS; round++) {
    const result = res.response.result;
    if (round === 2 && between) await between();
    const inputResponses = {};
    for (const [key, request] of Object.entries(isObject(result.inputRequests) ? result.inputRequests : {})) {
      const answer = answerInputRequest(request);
      if (answer !== undefined) inputResponses[key] = answer;
    }
    const params = isObject(original.params) ? { ...original.params } : {};
    delete params.inputResponses;
    delete params.requestState;
    if (Object.keys(inputResponses).length) params.inputResponses = inputResponses;
    if (result.requestState !== undefined) params.requestState = result.requestState;
    current = { ...original, id: nextId++, params };
    log(`round ${round} of ${original.params?.name ?? original.method}`, { id: current.id, inputResponses: Object.keys(inputResponses), requestState: result.requestState !== undefined });
    res = await rpc(current);
    rounds.push(res);
  }
  const outcome = res.response?.error ? `error ${res.response.error.code} ${res.response.error.message}` : isInputRequired(res.response) ? "still input_required" : "result";
  log(`${original.method} ${original.params?.name ?? original.params?.uri ?? ""}`.trim(), { rounds: rounds.length, outcome });
  return { res, rounds };
}

async function callTool(tool, args) {
  return runExchange({ method: "tools/call", params: { name: tool.name ?? tool, arguments: args ?? sampleArguments(tool.inputSchema) } });
}

/** Browse what else the server offers, as a user would (resources and prompts), when it says it has them. */
async function browseResourcesAndPrompts() {
  const caps = serverInfo?.capabilities ?? {};
  if (isObject(caps.resources)) {
    const { res } = await runExchange({ method: "resources/list", params: {} });
    const first = res.response?.result?.resources?.[0];
    if (first?.uri) await runExchange({ method: "resources/read", params: { uri: first.uri } });
  }
  if (isObject(caps.prompts)) {
    const { res } = await runExchange({ method: "prompts/list", params: {} });
    const first = res.response?.result?.prompts?.[0];
    if (first?.name) await runExchange({ method: "prompts/get", params: { name: first.name, arguments: {} } });
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Scenarios: what the user does after connecting. The default is "list the tools and try each callable one".

async function tryEveryTool(list) {
  for (const tool of list.tools) await callTool(tool);
  // A user may still type an excluded tool's name into the editor: the proxy must refuse to send it.
  for (const { tool } of list.excluded) {
    try {
      await callTool(tool);
      log(`the proxy SENT a call to excluded tool ${tool.name}`);
    } catch (err) {
      if (!(err instanceof ApiError) || err.status !== 400) throw err;
      log(`the proxy refused excluded tool ${tool.name}: ${err.body?.error?.message ?? ""}`);
    }
  }
}

const scenarios = {
  async "sep-2322-client-request-state"(list) {
    const byName = new Map(list.tools.map((t) => [t.name, t]));
    // Answer the echo_state form only after an unrelated call: its params must not borrow the other flow's state.
    const unrelated = () => callTool(byName.get("test_mrtr_unrelated") ?? "test_mrtr_unrelated", {});
    await runExchange({ method: "tools/call", params: { name: "test_mrtr_echo_state", arguments: {} } }, { between: unrelated });
    await callTool(byName.get("test_mrtr_no_state") ?? "test_mrtr_no_state", {});
    await callTool(byName.get("test_mrtr_no_result_type") ?? "test_mrtr_no_result_type", {});
  },

  async "http-custom-headers"(list) {
    const calls = Array.isArray(context.toolCalls) ? context.toolCalls : [];
    for (const call of calls) await callTool(list.tools.find((t) => t.name === call.name) ?? call.name, call.arguments ?? {});
  },

  async "http-standard-headers"(list) {
    await tryEveryTool(list);
    await browseResourcesAndPrompts();
  },

  async "json-schema-2020-12-preservation"(list) {
    // Paste the focal tool's inputSchema, as the proxy handed it to us, into the echo tool's `schema` argument.
    const focal = list.tools.find((t) => t.name !== "json_schema_echo");
    if (!focal) throw new Error("the proxy listed no tool to echo");
    await callTool("json_schema_echo", { schema: focal.inputSchema });
  },

  async "json-schema-ref-no-deref"() {
    // Listing the tools is the whole point: nothing may fetch the network $ref in the inputSchema.
  },
};

async function main() {
  if (!serverUrl) throw new Error("usage: node scripts/conformance-client.mjs <server-url> (run by the conformance suite)");
  log("scenario", { scenario, protocolVersion, serverUrl, toolscope: base });
  await connect();
  const list = await listTools();
  const run = scenarios[scenario] ?? tryEveryTool;
  await run(list);
  log("done");
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(`[toolscope-conformance] FAILED: ${err?.stack ?? err}`);
    process.exit(1);
  },
);
