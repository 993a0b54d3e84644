/**
 * Tests only: a real 2026-07-28 MCP server (SDK v2's low-level Server behind createMcpHandler, modern only) that
 * speaks the tasks extension `io.modelcontextprotocol/tasks` (SEP-2663), which SDK 2.4.0 does not implement: it is
 * declared in `server/discover`, `tools/call` may answer a flat CreateTaskResult (`resultType: "task"`), and
 * tasks/get, tasks/update and tasks/cancel are handled here against a store that outlives the per-request servers.
 *
 * The rules it keeps (and the conformance suite's `tasks-*` server scenarios check):
 * - a task only for a request whose `_meta` declared the extension; otherwise the tool runs synchronously (its
 *   questions as MRTR `input_required`), or, when it cannot run without a task, -32021 naming the extension;
 * - the tasks methods also need the extension declared (-32021); the SDK itself rejects an `Mcp-Method` or
 *   `Mcp-Name` that disagrees with the body (-32020, HTTP 400);
 * - tasks/get answers `result` once completed (tool errors too, with `isError`), `error` once failed, the outstanding
 *   `inputRequests` while waiting; an unknown or expired id is -32602;
 * - tasks/update takes answers to pending keys only; tasks/cancel is cooperative and the work ends `cancelled`.
 *
 * Every tasks/get, tasks/update and tasks/cancel (and each task's creation) is logged with its arrival time and
 * routing headers: on the returned handle (`log`, `polls(taskId)`) and, for a server in another process, as JSON at
 * `GET /_log` (optionally `?taskId=`) on the same port. tools: see tasks-tools.ts.
 */
import {
  CLIENT_CAPABILITIES_META_KEY,
  createMcpHandler,
  inputRequired,
  MissingRequiredClientCapabilityError,
  ProtocolError,
  Server,
  type CallToolResult,
  type ClientCapabilities,
  type InputRequest,
  type ServerContext,
} from "@modelcontextprotocol/server";
import * as z from "zod";
import { serveOnLoopback } from "./loopback-http.ts";
import { TaskStore, type DetailedTask, type TaskJob, type TaskLogEntry, type TaskMethod, type TaskRun } from "./tasks-store.ts";
import { FIXTURE_TOOLS, text, type FixtureTool, type ToolEnv } from "./tasks-tools.ts";

export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";

export interface TasksServerOptions {
  /** The `pollIntervalMs` every task asks clients to keep between polls (default 500). */
  pollIntervalMs?: number;
  /** Each task's `ttlMs`: it is forgotten this long after creation; `null` keeps it (default 5 minutes). */
  ttlMs?: number | null;
  /** One step of build_report and deploy_with_approval (default 1000 ms; tests make it short). */
  stepMs?: number;
  /** Tasks held at once; the oldest finished ones make room first (default 200). */
  maxTasks?: number;
  /** startTasksServer's port on 127.0.0.1 (default: a free one). */
  port?: number;
}

const DEFAULTS = { pollIntervalMs: 500, ttlMs: 5 * 60_000, stepMs: 1000, maxTasks: 200 } as const;

const BY_NAME = new Map(FIXTURE_TOOLS.map((t) => [t.tool.name, t]));

const TaskIdParams = z.looseObject({ taskId: z.string() });
const UpdateParams = z.looseObject({ taskId: z.string(), inputResponses: z.record(z.string(), z.unknown()).optional() });

/** What the request's `_meta` declared (the modern envelope; nothing carries over from earlier requests). */
function declared(ctx: ServerContext): ClientCapabilities {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  return (envelope?.[CLIENT_CAPABILITIES_META_KEY] ?? {}) as ClientCapabilities;
}

function declaresTasks(ctx: ServerContext): boolean {
  return declared(ctx).extensions?.[TASKS_EXTENSION] !== undefined;
}

function routingHeaders(ctx: ServerContext): { mcpMethod: string | null; mcpName: string | null } {
  const headers = ctx.http?.req?.headers;
  return { mcpMethod: headers?.get("mcp-method") ?? null, mcpName: headers?.get("mcp-name") ?? null };
}

/** Raised by a synchronous run's `ask`: the questions go back to the client as MRTR `input_required`. */
class NeedsInput extends Error {
  constructor(readonly requests: Record<string, InputRequest>) {
    super("needs input");
  }
}

/** The TaskJob of a synchronous run: waits end with the request, questions are answered from `inputResponses`. */
function syncJob(signal: AbortSignal, responses: Record<string, unknown>): TaskJob {
  return {
    signal,
    sleep: (ms) =>
      new Promise((resolve, reject) => {
        if (signal.aborted) return reject(new Error("The request was cancelled."));
        const timer = setTimeout(resolve, ms);
        signal.addEventListener("abort", () => (clearTimeout(timer), reject(new Error("The request was cancelled."))), { once: true });
      }),
    progress: () => undefined,
    ask: async (requests) => {
      const unanswered = Object.keys(requests).filter((k) => !(k in responses));
      if (unanswered.length > 0) throw new NeedsInput(Object.fromEntries(unanswered.map((k) => [k, requests[k]])));
      return Object.fromEntries(Object.keys(requests).map((k) => [k, responses[k]]));
    },
  };
}

interface Settings {
  store: TaskStore;
  pollIntervalMs: number;
  ttlMs: number | null;
  env: ToolEnv;
}

async function callTool(def: FixtureTool, rawArgs: Record<string, unknown>, ctx: ServerContext, s: Settings) {
  const tasks = declaresTasks(ctx);
  const missing: ClientCapabilities = {};
  if (def.support === "task-required" && !tasks) missing.extensions = { [TASKS_EXTENSION]: {} };
  if (def.asks && !declared(ctx).elicitation) missing.elicitation = {};
  if (Object.keys(missing).length > 0) throw new MissingRequiredClientCapabilityError({ requiredCapabilities: missing });

  const parsed = def.args.safeParse(rawArgs);
  if (!parsed.success) return text(`Invalid arguments for ${def.tool.name}: ${z.prettifyError(parsed.error)}`, true);
  const args = parsed.data as Record<string, unknown>;
  const responses = ctx.mcpReq.inputResponses ?? {};

  // Questions a tool asks before it becomes a task go out as MRTR rounds, answered synchronously (SEP-2663: MRTR
  // before the task, inputRequests + tasks/update during it; separate key spaces).
  let gathered: Record<string, unknown> = {};
  const gather = def.gather;
  if (gather) {
    const unanswered = Object.keys(gather).filter((k) => !(k in responses));
    if (unanswered.length > 0) return inputRequired({ inputRequests: Object.fromEntries(unanswered.map((k) => [k, gather[k]])) });
    gathered = Object.fromEntries(Object.keys(gather).map((k) => [k, responses[k]]));
  }

  if (def.support === "sync" || !tasks) {
    try {
      return await def.work(args, syncJob(ctx.mcpReq.signal, responses), gathered, s.env);
    } catch (err) {
      if (err instanceof NeedsInput) return inputRequired({ inputRequests: err.requests });
      throw err;
    }
  }

  // The task exists (tasks/get resolves it) before the CreateTaskResult goes out; its work starts after the answer
  // is taken, so the client always sees it begin `working`.
  const task = s.store.create(def.tool.name, { ttlMs: s.ttlMs, pollIntervalMs: s.pollIntervalMs, statusMessage: "The task has started." });
  const created = { resultType: "task", ...task.wire() };
  task.start((job) => def.work(args, job, gathered, s.env));
  s.store.record({ taskId: task.taskId, method: "tools/call", known: true, status: created.status, ...routingHeaders(ctx) });
  // SDK 2.4.0's types know only the 2025 nested CreateTaskResult; the 2026 flat one passes through at runtime.
  return created as unknown as CallToolResult;
}

/**
 * Logs one tasks-method request, gates it on the extension and finds its task. (An `Mcp-Name` naming another task
 * never gets here: the SDK answers it -32020, HTTP 400, before dispatch.)
 */
function taskRequest<T>(
  s: Settings,
  method: TaskMethod,
  taskId: string,
  ctx: ServerContext,
  handle: (task: TaskRun, entry: TaskLogEntry) => T,
): T {
  const at = Date.now();
  const entry: TaskLogEntry = { taskId, method, at, known: false, ...routingHeaders(ctx) };
  try {
    entry.known = s.store.peek(taskId) !== undefined;
    if (!declaresTasks(ctx))
      throw new MissingRequiredClientCapabilityError({ requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } });
    const task = s.store.find(taskId);
    const out = handle(task, entry);
    entry.status = task.status;
    return out;
  } finally {
    s.store.record(entry, at);
  }
}

/** One server instance (createMcpHandler makes one per request); everything lasting lives in `s.store`. */
function tasksMcpServer(s: Settings): Server {
  const server = new Server(
    { name: "tasks-fixture", version: "1.0.0" },
    { capabilities: { tools: {}, extensions: { [TASKS_EXTENSION]: {} } } },
  );
  server.setRequestHandler("tools/list", () => ({ tools: FIXTURE_TOOLS.map((t) => t.tool) }));
  server.setRequestHandler("tools/call", (request, ctx) => {
    const def = BY_NAME.get(request.params.name);
    if (!def) throw new ProtocolError(-32602, `Unknown tool: ${request.params.name}`);
    return callTool(def, request.params.arguments ?? {}, ctx, s);
  });
  // The explicit params schemas let these extension methods through the SDK's era gate; results are stamped
  // `resultType: "complete"` by the SDK.
  server.setRequestHandler("tasks/get", { params: TaskIdParams }, (params, ctx) =>
    taskRequest(s, "tasks/get", params.taskId, ctx, (task, entry) => {
      entry.sinceLastPollMs = entry.at - (task.lastPollAt ?? task.createdAt);
      task.lastPollAt = entry.at;
      return task.detailed() as DetailedTask & Record<string, unknown>;
    }),
  );
  server.setRequestHandler("tasks/update", { params: UpdateParams }, (params, ctx) =>
    taskRequest(s, "tasks/update", params.taskId, ctx, (task, entry) => {
      // The SDK lifts `inputResponses` out of the params (as on an MRTR retry) into ctx.mcpReq.inputResponses,
      // dropping entries that are not bare responses.
      const responses = ctx.mcpReq.inputResponses ?? params.inputResponses ?? {};
      entry.keys = Object.keys(responses);
      entry.accepted = task.answer(responses);
      return {};
    }),
  );
  server.setRequestHandler("tasks/cancel", { params: TaskIdParams }, (params, ctx) =>
    taskRequest(s, "tasks/cancel", params.taskId, ctx, (task) => {
      task.cancel();
      return {};
    }),
  );
  return server;
}

export interface TasksHandler {
  /** Serves MCP on any path but `/_log`, which answers the log as JSON (`?taskId=` narrows it to one task). */
  fetch(req: Request): Promise<Response>;
  store: TaskStore;
  close(): Promise<void>;
}

export function createTasksHandler(options: TasksServerOptions = {}): TasksHandler {
  const store = new TaskStore({ maxTasks: options.maxTasks ?? DEFAULTS.maxTasks, maxLog: 10_000 });
  const settings: Settings = {
    store,
    pollIntervalMs: options.pollIntervalMs ?? DEFAULTS.pollIntervalMs,
    ttlMs: options.ttlMs === undefined ? DEFAULTS.ttlMs : options.ttlMs,
    env: { stepMs: options.stepMs ?? DEFAULTS.stepMs },
  };
  const mcp = createMcpHandler(() => tasksMcpServer(settings), { legacy: "reject" });
  return {
    store,
    async fetch(req) {
      const url = new URL(req.url);
      if (url.pathname === "/_log" && req.method === "GET") {
        const taskId = url.searchParams.get("taskId");
        return Response.json(taskId ? store.log.filter((e) => e.taskId === taskId) : store.log);
      }
      return mcp.fetch(req);
    },
    async close() {
      store.close();
      await mcp.close();
    },
  };
}

export interface TasksServer {
  /** The MCP endpoint. */
  url: string;
  /** `GET` it for the log as JSON. */
  logUrl: string;
  /** Every request that touched a task, oldest first (live). */
  log: TaskLogEntry[];
  /** The arrival times (ms since the epoch) of every tasks/get of one task. */
  polls(taskId: string): number[];
  /** What tasks/get would answer now, without logging a poll. */
  task(taskId: string): DetailedTask | undefined;
  stop(): Promise<void>;
}

/** The tasks fixture on 127.0.0.1 (a free port unless `options.port` names one), MCP at `/mcp`. */
export async function startTasksServer(options: TasksServerOptions = {}): Promise<TasksServer> {
  const handler = createTasksHandler(options);
  const served = await serveOnLoopback(handler, options.port);
  return {
    url: `${served.origin}/mcp`,
    logUrl: `${served.origin}/_log`,
    log: handler.store.log,
    polls: (taskId) => handler.store.polls(taskId),
    task: (taskId) => handler.store.peek(taskId)?.detailed(),
    async stop() {
      await handler.close();
      await served.close();
    },
  };
}

/** What tasks-server-main.ts prints once it listens; LISTENING_LINE finds the MCP endpoint in a spawned one's output. */
export function listeningLine(server: Pick<TasksServer, "url" | "logUrl">): string {
  return `tasks-server listening on ${server.url} (log: ${server.logUrl})`;
}
export const LISTENING_LINE = /^tasks-server listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)/m;
