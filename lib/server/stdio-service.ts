import "server-only";
import path from "node:path";
import { Client } from "@modelcontextprotocol/client";
import type { ConnectionDescriptor, ConnectResponse, DisconnectResponse, EraChoice, HttpExchange, RpcResponse, Tool, ToolsResponse } from "@/lib/mcp/contract";
import { CLIENT_CAPABILITIES, CLIENT_INFO, stampMessage } from "@/lib/mcp/meta";
import type { Config } from "./config.ts";
import { describeConnected, negotiation } from "./connect.ts";
import { walkToolPages, type PageSender } from "./list-tools.ts";
import { checkOutput } from "./output-validation.ts";
import { ProxyError } from "./proxy-error.ts";
import { configuredServer } from "./stdio-config.ts";
import { StdioSendFailure, stdioRegistry, type StdioProcess, type StdioRegistry } from "./stdio-registry.ts";
import { ExchangeFailure } from "./upstream-exchange.ts";

/**
 * The proxy's stdio path (local mode only): connect launches a configured server through the SDK's stdio transport
 * and Client (era negotiation: the SDK probes server/discover on a disposable sibling process, then initializes
 * legacy servers); tools, rpc and disconnect reach that process through the registry by the descriptor's `stdioId`.
 */
export type StdioConfig = Pick<Config, "mode" | "stdioConfigPath" | "stdioMaxProcesses" | "stdioIdleMs" | "maxResponseBytes" | "requestTimeoutMs" | "maxToolPages" | "maxTools">;

/** The least time a stdio connect (process start and MCP handshake) is given, whatever TOOLSCOPE_REQUEST_TIMEOUT_MS says. */
export const STDIO_START_TIMEOUT_MS = 60_000;

export function isStdioUrl(url: string): boolean {
  return url.startsWith("stdio:");
}

function registryFor(cfg: StdioConfig, registry?: StdioRegistry): StdioRegistry {
  return registry ?? stdioRegistry(cfg);
}

/** Rethrow a send failure as the proxy's usual "failure with exchanges". */
function asExchangeFailure(err: unknown, earlier: HttpExchange[] = []): never {
  if (err instanceof StdioSendFailure) throw new ExchangeFailure(err.cause, [...earlier, err.exchange]);
  throw err;
}

function spawnProblem(err: unknown, proc: StdioProcess): ProxyError {
  const code = (err as NodeJS.ErrnoException)?.code;
  const tail = proc.stderr.tail(20);
  const stderr = tail.length ? ` Last stderr lines:\n${tail.join("\n")}` : "";
  if (code === "ENOENT") return new ProxyError("upstream-unreachable", `Could not start the stdio server "${proc.spec.name}": the command "${proc.spec.command}" was not found.`, "Fix \"command\" in the stdio servers file (an executable on PATH, or an absolute path).");
  if (code === "EACCES") return new ProxyError("upstream-unreachable", `Could not start the stdio server "${proc.spec.name}": "${proc.spec.command}" is not executable.`);
  if (proc.state === "dead") return new ProxyError("upstream-unreachable", `The stdio server "${proc.spec.name}" ${proc.describeExit()} while connecting.${stderr}`);
  if (err instanceof ProxyError) return err;
  const message = (err as Error)?.message ?? String(err);
  if (/timed? ?out/i.test(message)) return new ProxyError("upstream-timeout", `The stdio server "${proc.spec.name}" did not complete the MCP handshake in time: ${message}.${stderr}`, "Check that the command starts an MCP server on stdio; raise TOOLSCOPE_REQUEST_TIMEOUT_MS for slow starters.");
  return new ProxyError("upstream-protocol", `The stdio server "${proc.spec.name}" failed the MCP handshake: ${message}.${stderr}`);
}

/** POST /api/connect for `stdio:<name>`: launch the configured server and negotiate its era. */
export async function connectStdio(input: { url: string; era: EraChoice }, cfg: StdioConfig, registry?: StdioRegistry): Promise<ConnectResponse> {
  const spec = await configuredServer(cfg, input.url);
  const reg = registryFor(cfg, registry);
  const proc = reg.create(spec);
  const client = new Client({ ...CLIENT_INFO }, { capabilities: CLIENT_CAPABILITIES as never, versionNegotiation: negotiation(input.era) });
  // Starting a process (twice with `auto`: the SDK probes on a sibling) can take far longer than one request.
  const timeoutMs = Math.max(cfg.requestTimeoutMs, STDIO_START_TIMEOUT_MS);
  // Our own abort, cleared once connected: the process outlives this request.
  const ctrl = new AbortController();
  const timer = setTimeout(() => ctrl.abort(new ProxyError("upstream-timeout", `The stdio server "${spec.name}" did not complete the MCP handshake within ${timeoutMs} ms.`, "Check that the command starts an MCP server on stdio (its stderr is in this message when it wrote any).")), timeoutMs);
  try {
    await client.connect(proc.transport, { timeout: timeoutMs, signal: ctrl.signal });
  } catch (err) {
    await new Promise((r) => setTimeout(r, 50)); // let the exit and last stderr lines land
    const problem = spawnProblem(ctrl.signal.aborted ? ctrl.signal.reason : err, proc);
    await reg.stop(proc.id);
    throw problem;
  } finally {
    clearTimeout(timer);
  }
  const { server, discover } = describeConnected(client, `${input.url} (${path.basename(spec.command)}, pid ${proc.pid ?? "?"})`);
  const { era, protocolVersion } = server;
  proc.adopt(era);
  const connection: ConnectionDescriptor = { v: 1, url: input.url, era, protocolVersion, stdioId: proc.id, ...(era === "modern" && discover ? { discover } : {}) };
  return {
    server,
    connection,
    stderr: proc.stderr.takeNew(),
  };
}

/** Stamped `notifications/cancelled` for a request given up on. */
function cancelFor(era: "modern" | "legacy") {
  return (requestId: unknown, reason: string) => stampMessage({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId, reason } }, era, () => 0).message;
}

/** POST /api/tools for a stdio connection: every page (within the caps). Not cached: the process is local and its own. */
export async function listStdioTools(descriptor: ConnectionDescriptor, cfg: StdioConfig, registry?: StdioRegistry): Promise<ToolsResponse & { exchanges: HttpExchange[] }> {
  const proc = registryFor(cfg, registry).get(descriptor.stdioId, descriptor.url);
  const send: PageSender = async (message) => {
    const sent = await proc.send(message, { timeoutMs: cfg.requestTimeoutMs, cancelMessage: cancelFor(descriptor.era) }).catch((err) => asExchangeFailure(err, []));
    return { response: sent.response, exchanges: [sent.exchange] };
  };
  const { excluded, ...list } = await walkToolPages(send, { era: descriptor.era, maxPages: cfg.maxToolPages, maxTools: cfg.maxTools, orderKey: `${descriptor.url}|${descriptor.era}` });
  proc.tools = [...list.tools, ...excluded.map((e) => e.tool)];
  return { ...list, excluded, cache: { hit: false } };
}

let counter = 0;
function nextId(): string {
  counter = (counter + 1) % 1_000_000;
  return `toolscope-${Date.now().toString(36)}-${counter}`;
}

export interface StdioRpcOptions {
  signal?: AbortSignal;
  onNotification?: (message: Record<string, unknown>) => void;
}

/**
 * POST /api/rpc for a stdio connection: the message as written (modern `_meta` stamped where missing, as on HTTP;
 * no `Mcp-*` headers: there is no HTTP), written to the process's stdin; the response with the same id is awaited.
 * A cancelled or timed-out request is followed by `notifications/cancelled`.
 */
export async function rpcStdio(descriptor: ConnectionDescriptor, message: Record<string, unknown>, cfg: StdioConfig, opts: StdioRpcOptions = {}, registry?: StdioRegistry): Promise<RpcResponse> {
  const proc = registryFor(cfg, registry).get(descriptor.stdioId, descriptor.url);
  const { message: stamped, added } = stampMessage(message, descriptor.era, nextId);
  let sent;
  try {
    sent = await proc.send(stamped, { timeoutMs: cfg.requestTimeoutMs, signal: opts.signal, onNotification: opts.onNotification, cancelMessage: cancelFor(descriptor.era) });
  } catch (err) {
    asExchangeFailure(err);
  }
  const name = stamped.method === "tools/call" ? (stamped.params as { name?: unknown } | undefined)?.name : undefined;
  const tool = typeof name === "string" ? (proc.tools?.find((t) => t.name === name) as Tool | undefined) : undefined;
  const outputValidation = tool ? checkOutput(tool, sent.response) : undefined;
  return {
    response: sent.response,
    notifications: sent.notifications,
    sent: stamped,
    added,
    exchanges: [sent.exchange],
    durationMs: sent.durationMs,
    ...(outputValidation ? { outputValidation } : {}),
    stderr: proc.stderr.takeNew(),
  };
}

/** POST /api/disconnect for a stdio connection: stop the process. */
export async function disconnectStdio(descriptor: ConnectionDescriptor, cfg: StdioConfig, registry?: StdioRegistry): Promise<DisconnectResponse> {
  const reg = registryFor(cfg, registry);
  const proc = descriptor.stdioId ? await reg.stop(descriptor.stdioId, descriptor.url) : undefined;
  if (!proc) return { ok: true, ended: true, note: `No process was running for ${descriptor.url} with this connection (already stopped).`, exchanges: [] };
  return { ok: true, ended: true, note: `Stopped the stdio server "${proc.spec.name}"${proc.pid ? ` (pid ${proc.pid})` : ""}.`, exchanges: [] };
}
