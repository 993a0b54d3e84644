import type {
  ConnectRequest,
  ConnectResponse,
  ConnectionDescriptor,
  ProxyErrorBody,
  RpcAnswerRequest,
  RpcCancelRequest,
  RpcControlResponse,
  RpcResponse,
  RpcStreamEvent,
  ToolsResponse,
  UserHeaders,
} from "../mcp/contract.ts";
import type { OAuthAuthorizeRequest, OAuthAuthorizeResponse, OAuthRevokeRequest, OAuthRevokeResponse } from "../mcp/oauth-contract.ts";
import { SseParser } from "../mcp/sse-parser.ts";
import type { AppRpcRequest, AppViewRequest, AppViewResponse } from "../mcp/apps-contract.ts";
import type { SkillsRequest, SkillsResponse } from "../mcp/skills-contract.ts";

/** A failure reported by our API ("we couldn't ask"), with its kind, message and hint. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ProxyErrorBody["error"],
  ) {
    super(body.message);
    this.name = "ApiError";
  }
}

/** Send a POST to our API; a network failure becomes an ApiError (an abort stays an AbortError). */
async function send(path: string, body: unknown, accept: string, signal?: AbortSignal): Promise<Response> {
  try {
    return await fetch(path, {
      method: "POST",
      headers: { "content-type": "application/json", accept },
      body: JSON.stringify(body),
      signal,
    });
  } catch (err) {
    if ((err as Error).name === "AbortError") throw err;
    throw new ApiError(0, {
      kind: "internal",
      message: "Toolscope's server could not be reached.",
      hint: "Check that the app is still running.",
    });
  }
}

/** Read a JSON answer of our API: the body on success, an ApiError with its typed error otherwise. */
async function readJson<T>(res: Response): Promise<T> {
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ApiError(res.status, { kind: "internal", message: `Toolscope's server answered HTTP ${res.status} with a non-JSON body.` });
  }
  if (!res.ok) throw new ApiError(res.status, (json as ProxyErrorBody).error ?? { kind: "internal", message: `HTTP ${res.status}` });
  return json as T;
}

async function post<T>(path: string, body: unknown, signal?: AbortSignal): Promise<T> {
  return readJson<T>(await send(path, body, "application/json", signal));
}

/** The /api/rpc body; header overrides only when there are any. */
function rpcBody(
  connection: ConnectionDescriptor,
  message: unknown,
  headers: UserHeaders,
  headerOverrides: Record<string, string> = {},
  tasks = false,
) {
  return { connection, message, headers, ...(Object.keys(headerOverrides).length ? { headerOverrides } : {}), ...(tasks ? { tasks } : {}) };
}

/** What a streamed /api/rpc hands over before its final event. */
export interface RpcStreamHandlers {
  /** A JSON-RPC notification for the request (progress, log messages). */
  onNotification?: (n: Record<string, unknown>) => void;
  /** The stream's id (its first event): what POST /api/rpc/answer and /api/rpc/cancel name. */
  onStream?: (streamId: string) => void;
  /** The server asks the client something mid-call: answer with `api.answer` within `timeoutMs`. */
  onServerRequest?: (event: Extract<RpcStreamEvent, { type: "server-request" }>) => void;
  /** A server request stopped waiting (answered, timed out, or the call ended). */
  onServerRequestEnded?: (event: Extract<RpcStreamEvent, { type: "server-request-ended" }>) => void;
}

/**
 * POST /api/rpc as an event stream (`Accept: text/event-stream`): notifications (progress, log messages) and the
 * server's requests to the client are handed over as they arrive (`handlers`, or just a notification callback);
 * resolves with the RpcResponse. Aborting closes the stream, which cancels the upstream call; `api.cancel` stops it
 * too but lets the stream end with what happened so far. A JSON answer (an API without streaming) is accepted as well.
 */
async function rpcStream(
  connection: ConnectionDescriptor,
  message: unknown,
  headers: UserHeaders,
  handlers: RpcStreamHandlers | ((n: Record<string, unknown>) => void),
  signal?: AbortSignal,
  headerOverrides?: Record<string, string>,
  /** Declare the tasks extension on this request (the caller follows a task handle to its end). */
  tasks = false,
): Promise<RpcResponse> {
  const on: RpcStreamHandlers = typeof handlers === "function" ? { onNotification: handlers } : handlers;
  const res = await send("/api/rpc", rpcBody(connection, message, headers, headerOverrides, tasks), "text/event-stream", signal);
  if (!(res.headers.get("content-type") ?? "").includes("text/event-stream") || !res.body) return readJson<RpcResponse>(res);
  let final: { ok: true; body: RpcResponse } | { ok: false; status: number; body: ProxyErrorBody } | undefined;
  const parser = new SseParser((e) => {
    let event: RpcStreamEvent;
    try {
      event = JSON.parse(e.data) as RpcStreamEvent;
    } catch {
      return; // not one of our events
    }
    switch (event?.type) {
      case "stream":
        on.onStream?.(event.streamId);
        break;
      case "server-request":
        on.onServerRequest?.(event);
        break;
      case "server-request-ended":
        on.onServerRequestEnded?.(event);
        break;
      case "notification":
        on.onNotification?.(event.message);
        break;
      case "result":
        final = { ok: true, body: event.body };
        break;
      case "error":
        final = { ok: false, status: event.status, body: event.body };
        break;
    }
  });
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  try {
    while (!final) {
      const { done, value } = await reader.read();
      if (done) break;
      parser.push(value);
    }
  } finally {
    reader.cancel().catch(() => undefined);
  }
  if (!final) throw new ApiError(0, { kind: "internal", message: "The response stream from Toolscope's server ended before the answer." });
  if (!final.ok) throw new ApiError(final.status, final.body.error ?? { kind: "internal", message: `HTTP ${final.status}` });
  return final.body;
}

/** The answer of a /api/skills operation: `list` answers a SkillsListResponse, `read` a SkillsReadResponse… */
export type SkillsAnswerOf<R extends SkillsRequest> = Extract<SkillsResponse, { op: R["op"] }>;

/** Typed calls to our proxy API. */
export const api = {
  connect: (req: ConnectRequest, signal?: AbortSignal) => post<ConnectResponse>("/api/connect", req, signal),
  /** `fresh` skips the proxy's list cache (the server's list may have changed). */
  tools: (connection: ConnectionDescriptor, headers: UserHeaders, signal?: AbortSignal, fresh = false) =>
    post<ToolsResponse>("/api/tools", { connection, headers, ...(fresh ? { fresh } : {}) }, signal),
  rpc: (
    connection: ConnectionDescriptor,
    message: unknown,
    headers: UserHeaders,
    signal?: AbortSignal,
    headerOverrides?: Record<string, string>,
  ) => post<RpcResponse>("/api/rpc", rpcBody(connection, message, headers, headerOverrides), signal),
  rpcStream,
  /** Answer a server request announced on a /api/rpc stream (404 `not-found` once it no longer waits). */
  answer: (req: RpcAnswerRequest, signal?: AbortSignal) => post<RpcControlResponse>("/api/rpc/answer", req, signal),
  /** Stop the call of a /api/rpc stream; the stream then ends with an `error` event carrying the exchanges so far. */
  cancel: (req: RpcCancelRequest, signal?: AbortSignal) => post<RpcControlResponse>("/api/rpc/cancel", req, signal),
  /** Run the OAuth flow as far as it goes without the user; a failed step is an ApiError of kind `oauth-flow`. */
  oauthAuthorize: (req: OAuthAuthorizeRequest, signal?: AbortSignal) => post<OAuthAuthorizeResponse>("/api/oauth/authorize", req, signal),
  /** Revoke the tokens of a sign-in (where the authorization server can). */
  oauthRevoke: (req: OAuthRevokeRequest, signal?: AbortSignal) => post<OAuthRevokeResponse>("/api/oauth/revoke", req, signal),
  /** Store a snapshot of the server's definitions (Share); `headers` for a signed-in server, used for this fetch only. */
  snapshot: (req: { server: string; headers?: UserHeaders }, signal?: AbortSignal) =>
    post<{ id: string; url: string; fetchedAt?: string }>("/api/snapshots", req, signal),
  /** An MCP App's view, read from its server and wrapped in its policy. */
  appView: (req: AppViewRequest, signal?: AbortSignal) => post<AppViewResponse>("/api/apps/view", req, signal),
  /** A message an MCP App sends to its own server (the app rule is applied by the route too). */
  appRpc: (req: AppRpcRequest, signal?: AbortSignal) =>
    post<RpcResponse>("/api/apps/rpc", { ...req, exchanges: req.exchanges ?? true }, signal),
  /**
   * A server's skills (SEP-2640): list, get, one file read and verified against the skill's entry, a directory. A
   * file that fails a check is an answer with `refused` (HTTP 200), never an ApiError. On a legacy connection send
   * `capabilities` (the server.capabilities /api/connect returned).
   */
  skills: <R extends SkillsRequest>(req: R, signal?: AbortSignal) => post<SkillsAnswerOf<R>>("/api/skills", req, signal),
};
