#!/usr/bin/env node
/**
 * Adapter between the official MCP conformance suite (`@modelcontextprotocol/conformance`, client scenarios)
 * and a RUNNING Toolscope: the suite starts a mock MCP server and runs
 *
 *   node scripts/conformance-client.mjs <server-url>
 *
 * with MCP_CONFORMANCE_SCENARIO (and MCP_CONFORMANCE_PROTOCOL_VERSION, MCP_CONFORMANCE_CONTEXT) set. This script
 * plays the browser: it drives Toolscope's HTTP API (TOOLSCOPE_URL, e.g. http://127.0.0.1:3100) exactly as the
 * playground does — connect (interactive: a person answers the server's requests), list tools, send JSON-RPC
 * messages over the streamed /api/rpc, answer the server's requests announced on that stream (elicitation/create,
 * sampling/createMessage, roots/list) through POST /api/rpc/answer, answer MRTR `input_required` rounds, list and load
 * skills through POST /api/skills — so the proxy is the MCP client under test. Everything on the wire (headers,
 * `_meta`, `Mcp-Param-*`, which tools may be called, the JSON-RPC envelope of an answer, which skill files are read
 * and whether they are used) is the proxy's doing; this script only decides what a user would click.
 *
 * Plain Node ESM with no dependencies: runs on Node 20 and 22. Exit code 0 when every step the user took got an
 * answer from our API (a JSON-RPC error from the server is an answer) and the proxy took every answer the user gave
 * to a server request; 1 on anything else.
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

function requestHeaders(accept = "application/json") {
  return { "content-type": "application/json", accept, origin: new URL(base).origin };
}

async function post(path, body) {
  const res = await fetch(`${base}${path}`, { method: "POST", headers: requestHeaders(), body: JSON.stringify(body) });
  const text = await res.text();
  const json = parseJson(text);
  if (!res.ok || json === undefined) throw new ApiError(path, res.status, json ?? text.slice(0, 2000));
  return json;
}

/**
 * An incremental `text/event-stream` parser (WHATWG rules: one field per line, `data` lines joined with "\n",
 * comments ignored, a blank line dispatches; CR, LF and CRLF line ends, a CRLF split across chunks included).
 */
function sseParser(emit) {
  let buffer = "";
  let data = [];
  let event;
  let pendingCr = false;
  function line(text) {
    if (text === "") {
      if (data.length || event !== undefined) emit({ event, data: data.join("\n") });
      data = [];
      event = undefined;
      return;
    }
    if (text.startsWith(":")) return;
    const colon = text.indexOf(":");
    const field = colon < 0 ? text : text.slice(0, colon);
    let value = colon < 0 ? "" : text.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") data.push(value);
    else if (field === "event") event = value;
  }
  return (chunk) => {
    // A CR that ended the previous chunk already ended its line: an LF right after it belongs to that line end.
    if (pendingCr && chunk.startsWith("\n")) chunk = chunk.slice(1);
    pendingCr = false;
    buffer += chunk;
    let at;
    while ((at = buffer.search(/\r\n|\r|\n/)) >= 0) {
      const crlf = buffer.startsWith("\r\n", at);
      if (!crlf && buffer[at] === "\r" && at === buffer.length - 1) pendingCr = true;
      const text = buffer.slice(0, at);
      buffer = buffer.slice(at + (crlf ? 2 : 1));
      line(text);
    }
  };
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
  // interactive: a person answers the server's requests (the connection declares elicitation, sampling, roots).
  const res = await withAuth(() => post("/api/connect", { url: serverUrl, era, interactive: true, ...authHeaders() }));
  connection = res.connection;
  serverInfo = res.server;
  log("connected", { era: res.server.era, protocolVersion: res.server.protocolVersion, exchanges: res.exchanges?.length ?? 0 });
  return res;
}

async function listTools() {
  const res = await withAuth(() => post("/api/tools", { connection, ...authHeaders() }));
  if (res.connection) connection = res.connection;
  log("tools", { callable: res.tools.map((t) => t.name), excluded: res.excluded.map((e) => `${e.tool.name} (${e.reason})`) });
  return res;
}

/** Server requests seen on /api/rpc streams, by method, and how many of our answers the proxy refused. */
const serverRequests = { seen: {}, answered: 0, refused: [] };

/** POST the user's answer to one server request; the proxy adds `jsonrpc` and the server's id. */
async function answerServerRequest(streamId, event) {
  const request = isObject(event.request) ? event.request : {};
  const method = typeof request.method === "string" ? request.method : "(no method)";
  serverRequests.seen[method] = (serverRequests.seen[method] ?? 0) + 1;
  const result = answerInputRequest(request);
  const response = result !== undefined ? { result } : { error: { code: -32601, message: `The user cannot answer ${method}.` } };
  log("server request", {
    method,
    pendingId: event.pendingId,
    timeoutMs: event.timeoutMs,
    answer: result !== undefined ? Object.keys(result) : "error -32601",
  });
  try {
    await post("/api/rpc/answer", { streamId: event.streamId ?? streamId, pendingId: event.pendingId, response });
    serverRequests.answered++;
  } catch (err) {
    serverRequests.refused.push(`${method} (${event.pendingId}): ${err.message}`);
    log(`the proxy refused our answer to ${method}: ${err.message}`);
  }
}

/**
 * Send one message as the editor holds it, over the streamed /api/rpc as the playground does: the proxy stamps
 * what the protocol requires, announces each server request (answered here, while the stream stays open), and
 * ends with one `result` (the RpcResponse) or `error` (an ApiError, as a failed JSON answer is). A plain JSON
 * answer (an API without streaming) is accepted too.
 */
async function rpc(message) {
  return withAuth(() => rpcOnce(message));
}

async function rpcOnce(message) {
  const path = "/api/rpc";
  const res = await fetch(`${base}${path}`, {
    method: "POST",
    headers: requestHeaders("text/event-stream"),
    body: JSON.stringify({ connection, message, ...authHeaders() }),
  });
  if (!(res.headers.get("content-type") ?? "").includes("text/event-stream") || !res.body) {
    const text = await res.text();
    const json = parseJson(text);
    if (!res.ok || json === undefined) throw new ApiError(path, res.status, json ?? text.slice(0, 2000));
    if (json.connection) connection = json.connection;
    return json;
  }
  let streamId;
  let final;
  const answers = [];
  const push = sseParser(({ event: name, data }) => {
    const event = parseJson(data);
    if (!isObject(event)) return log("unreadable stream event", { event: name, data: data.slice(0, 200) });
    const type = event.type ?? name;
    if (type === "stream") streamId = event.streamId;
    else if (type === "server-request") answers.push(answerServerRequest(streamId, event));
    else if (type === "server-request-ended")
      log("server request ended", { pendingId: event.pendingId, answeredBy: event.answeredBy, note: event.note });
    else if (type === "notification") log("notification", { method: event.message?.method });
    else if (type === "result" || type === "error") final ??= event;
  });
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  try {
    while (!final) {
      const { done, value } = await reader.read();
      if (done) break;
      push(value);
    }
  } finally {
    reader.cancel().catch(() => undefined);
  }
  await Promise.all(answers);
  if (!final)
    throw new ApiError(path, res.status, {
      error: { kind: "internal", message: "the /api/rpc stream ended without a result or error event" },
    });
  if (final.type === "error") throw new ApiError(path, final.status, final.body);
  const body = final.body;
  if (body.connection) connection = body.connection;
  for (const record of Array.isArray(body.serverRequests) ? body.serverRequests : []) {
    log("server request record", {
      method: record.request?.method,
      answeredBy: record.answeredBy,
      answer: isObject(record.answer?.result) ? "result" : record.answer?.error,
    });
  }
  return body;
}

// ---------------------------------------------------------------------------------------------------------------
// Signing in, as the playground's sign-in panel does: the proxy answers `upstream-auth` with the server's challenge,
// the browser asks POST /api/oauth/authorize for the next step, follows the authorization URL (the suite's
// authorization server approves at once and redirects to Toolscope's /oauth/callback, whose query we read instead
// of loading the page), checks `state`, sends the code back, and repeats the call with the token.

/** Step-ups (403 insufficient_scope) per call before we give up, as the playground does (MAX_STEP_UP_ATTEMPTS). */
const MAX_STEP_UPS = 2;
/** Sign-ins after a 401 per call: a second 401 right after a fresh token means the flow cannot help. */
const MAX_REAUTHORIZATIONS = 2;

const oauth = {
  state: undefined,
  // The suite's pre-registration scenario hands over the client it registered (what a user types into "Use my client").
  preregistered: typeof context.client_id === "string" ? { clientId: context.client_id, clientSecret: context.client_secret } : undefined,
  signIns: 0,
};

function authHeaders() {
  const token = oauth.state?.tokens?.access_token;
  return token ? { headers: { Authorization: `Bearer ${token}` } } : {};
}

/** The union of space-separated scopes, first seen first (SEP-2350: a step-up keeps what was granted). */
function scopeUnion(...scopes) {
  const out = [];
  for (const s of scopes) for (const one of (s ?? "").split(" ")) if (one && !out.includes(one)) out.push(one);
  return out.length ? out.join(" ") : undefined;
}

async function oauthStep(body) {
  const res = await post("/api/oauth/authorize", {
    url: serverUrl,
    state: oauth.state,
    ...(oauth.preregistered ? { preregistered: oauth.preregistered } : {}),
    ...body,
  });
  oauth.state = res.state;
  for (const step of res.steps ?? []) log("oauth step", { kind: step.kind, ok: step.ok, title: step.title.slice(0, 160) });
  return res;
}

/** The browser's part of the redirect: open the authorization URL, land on our callback, read its query. */
async function followAuthorization(authorizationUrl) {
  const res = await fetch(authorizationUrl, { redirect: "manual" });
  const location = res.headers.get("location");
  if (!location) throw new Error(`the authorization endpoint answered HTTP ${res.status} without a redirect`);
  const back = new URL(location, authorizationUrl);
  const q = back.searchParams;
  if (q.get("error")) throw new Error(`the authorization server refused: ${q.get("error")} ${q.get("error_description") ?? ""}`);
  if (q.get("state") !== oauth.state?.oauthState) throw new Error("the callback's state does not match the request's: not our sign-in");
  return { code: q.get("code"), state: q.get("state"), ...(q.has("iss") ? { iss: q.get("iss") } : {}) };
}

async function signIn(challenge, { scope, forceReauthorization, invalidate } = {}) {
  oauth.signIns++;
  const first = await oauthStep({
    ...(scope ? { scope } : {}),
    ...(challenge.resourceMetadataUrl ? { resourceMetadataUrl: challenge.resourceMetadataUrl } : {}),
    ...(forceReauthorization ? { forceReauthorization: true } : {}),
    ...(invalidate ? { invalidate } : {}),
  });
  if (first.outcome === "authorized") return log("signed in without the user (refreshed)");
  const callback = await followAuthorization(first.authorizationUrl);
  const done = await oauthStep({ callback, ...(scope ? { scope } : {}) });
  if (done.outcome !== "authorized") throw new Error("the token exchange did not end the flow");
  log("signed in", { identity: first.clientIdentity, scope: done.state.tokens?.scope });
}

/** Run `call`; when the server wants authorization, sign in (or step up) and run it again, within the limits. */
async function withAuth(call) {
  let stepUps = 0;
  let reauthorizations = 0;
  for (;;) {
    try {
      return await call();
    } catch (err) {
      const challenge = err instanceof ApiError ? err.body?.error?.auth : undefined;
      if (!challenge) throw err;
      log("challenge", challenge);
      if (challenge.status === 403) {
        if (++stepUps > MAX_STEP_UPS) throw new Error(`still 403 insufficient_scope after ${MAX_STEP_UPS} step-ups: giving up`);
        const scope = scopeUnion(oauth.state?.requestedScope ?? oauth.state?.tokens?.scope, challenge.scope);
        const granted = (oauth.state?.tokens?.scope ?? "").split(" ");
        const widens = (scope ?? "").split(" ").some((s) => s && !granted.includes(s));
        await signIn(challenge, { scope, forceReauthorization: widens });
      } else {
        if (++reauthorizations > MAX_REAUTHORIZATIONS) throw new Error(`still 401 after ${MAX_REAUTHORIZATIONS} sign-ins: giving up`);
        // A 401 with a token in hand: it expired, or the server moved to another authorization server (SEP-2352).
        const hadToken = Boolean(oauth.state?.tokens);
        await signIn(challenge, { scope: challenge.scope, ...(hadToken ? { invalidate: ["discovery"] } : {}) });
      }
    }
  }
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

/**
 * A form as the playground's elicitation dialog fills it (SEP-1034): every property with a `default` starts with it;
 * the user types a sample value into each of the others, then accepts.
 */
function filledForm(requestedSchema) {
  const content = {};
  const properties = isObject(requestedSchema) && isObject(requestedSchema.properties) ? requestedSchema.properties : {};
  for (const [key, sub] of Object.entries(properties))
    content[key] = isObject(sub) && "default" in sub ? sub.default : sampleValue(sub, key);
  return content;
}

/**
 * The user's answer to one request from the server (a server request on the stream, or an MRTR input request):
 * accept forms with their defaults and sample values, accept URL elicitations, reply to sampling, no roots.
 * Undefined for a method the user cannot answer.
 */
function answerInputRequest(request) {
  const method = isObject(request) ? request.method : undefined;
  const params = isObject(request?.params) ? request.params : {};
  if (method === "elicitation/create") {
    if (params.mode === "url") return { action: "accept" };
    return { action: "accept", content: filledForm(params.requestedSchema) };
  }
  if (method === "sampling/createMessage") {
    return {
      role: "assistant",
      content: { type: "text", text: "A reply typed by the user." },
      model: "toolscope-human",
      stopReason: "endTurn",
    };
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
    log(`round ${round} of ${original.params?.name ?? original.method}`, {
      id: current.id,
      inputResponses: Object.keys(inputResponses),
      requestState: result.requestState !== undefined,
    });
    res = await rpc(current);
    rounds.push(res);
  }
  const outcome = res.response?.error
    ? `error ${res.response.error.code} ${res.response.error.message}`
    : isInputRequired(res.response)
      ? "still input_required"
      : "result";
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
// Skills (SEP-2640), as the skills panel does: POST /api/skills lists them and reads one file at a time, each read
// verified by the proxy against the skill's entry (size, digest, SKILL.md's frontmatter). A refused file comes back as
// `refused` (an answer, not a failure of the API): the user sees why, and does not go on with that skill.

/** One /api/skills operation on this connection; the server's capabilities go along (a legacy descriptor lacks them). */
async function skillsCall(body) {
  const res = await withAuth(() =>
    post("/api/skills", { connection, capabilities: serverInfo?.capabilities ?? {}, ...body, ...authHeaders() }),
  );
  if (res.connection) connection = res.connection;
  return res;
}

async function listSkills() {
  const res = await skillsCall({ op: "list" });
  log("skills", { skills: res.skills.map((s) => s.uri), invalid: res.invalid, warnings: res.warnings, pages: res.pages });
  return res;
}

/** Load a skill: its SKILL.md first; its other files only once that was verified, and only until one is refused. */
async function loadSkill(skill) {
  const manifest = await skillsCall({ op: "read", skill });
  if (manifest.refused) return log("the proxy refused the skill", { reason: manifest.refused.reason, message: manifest.refused.message });
  log("loaded", { skill: skill.uri, size: manifest.file.size, verified: manifest.file.verified });
  for (const file of skill.resources === "dynamic" ? [] : skill.resources) {
    if (file.uri === skill.uri) continue;
    const read = await skillsCall({ op: "read", skill, file: file.uri });
    if (read.refused)
      return log("the proxy refused a file", { file: file.uri, reason: read.refused.reason, message: read.refused.message });
    log("read", { file: file.uri, size: read.file.size });
  }
}

async function loadFirstSkill() {
  const { skills } = await listSkills();
  if (skills.length === 0) throw new Error("the proxy listed no skill to load");
  await loadSkill(skills[0]);
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

  // Listing skills must not fetch any of their files (lazy loading): the user only looks at the list.
  "sep-2640-client-no-prefetch": listSkills,
  // The server serves a SKILL.md that does not match its entry: the proxy must refuse it, so the user never reads on.
  "sep-2640-client-verify-digest": loadFirstSkill,
  "sep-2640-client-verify-size": loadFirstSkill,
  "sep-2640-client-verify-frontmatter": loadFirstSkill,
};

async function main() {
  if (!serverUrl) throw new Error("usage: node scripts/conformance-client.mjs <server-url> (run by the conformance suite)");
  log("scenario", { scenario, protocolVersion, serverUrl, toolscope: base });
  await connect();
  const list = await listTools();
  const run = scenarios[scenario] ?? tryEveryTool;
  await run(list);
  if (serverRequests.refused.length)
    throw new Error(
      `the proxy refused ${serverRequests.refused.length} answer(s) to server requests:\n${serverRequests.refused.join("\n")}`,
    );
  log("done", { serverRequests: serverRequests.seen, answered: serverRequests.answered });
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(`[toolscope-conformance] FAILED: ${err?.stack ?? err}`);
    process.exit(1);
  },
);
