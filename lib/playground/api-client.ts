import type { ConnectRequest, ConnectResponse, ConnectionDescriptor, ProxyErrorBody, RpcResponse, ToolsResponse, UserHeaders } from "../mcp/contract.ts";

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

async function post<T>(path: string, body: unknown, signal?: AbortSignal): Promise<T> {
  let res: Response;
  try {
    res = await fetch(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body), signal });
  } catch (err) {
    if ((err as Error).name === "AbortError") throw err;
    throw new ApiError(0, { kind: "internal", message: "Toolscope's server could not be reached.", hint: "Check that the app is still running." });
  }
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

/** Typed calls to our proxy API. */
export const api = {
  connect: (req: ConnectRequest, signal?: AbortSignal) => post<ConnectResponse>("/api/connect", req, signal),
  tools: (connection: ConnectionDescriptor, headers: UserHeaders, signal?: AbortSignal) => post<ToolsResponse>("/api/tools", { connection, headers }, signal),
  rpc: (connection: ConnectionDescriptor, message: unknown, headers: UserHeaders, signal?: AbortSignal) => post<RpcResponse>("/api/rpc", { connection, message, headers }, signal),
};
