import path from "node:path";
import { Client } from "@modelcontextprotocol/client";
import type { ConnectionDescriptor, ConnectResponse, DisconnectResponse, EraChoice } from "@/lib/mcp/contract";
import { CLIENT_INFO, clientCapabilities } from "@/lib/mcp/meta";
import type { UpstreamSettings } from "../settings.ts";
import { describeConnected, negotiation } from "./connect.ts";
import type { Upstream } from "../upstream.ts";
import { ProxyError } from "../errors/proxy-error.ts";
import { configuredServer } from "./stdio-config.ts";
import { stdioRegistry, type StdioProcess, type StdioRegistry } from "./stdio-registry.ts";

/**
 * The proxy's stdio path (local mode only): connect launches a configured server through the SDK's stdio transport
 * and Client (era negotiation: the SDK probes server/discover on a disposable sibling process, then initializes
 * legacy servers); tools, rpc and disconnect reach that process through the registry by the descriptor's `stdioId`.
 */
export type StdioConfig = Pick<
  UpstreamSettings,
  "mode" | "stdioConfigPath" | "stdioMaxProcesses" | "stdioIdleMs" | "maxResponseBytes" | "requestTimeoutMs" | "maxToolPages" | "maxTools"
>;

/** The least time a stdio connect (process start and MCP handshake) is given, whatever TOOLSCOPE_REQUEST_TIMEOUT_MS says. */
export const STDIO_START_TIMEOUT_MS = 60_000;

function registryFor(cfg: StdioConfig, registry?: StdioRegistry): StdioRegistry {
  return registry ?? stdioRegistry(cfg);
}

function spawnProblem(err: unknown, proc: StdioProcess): ProxyError {
  const code = (err as NodeJS.ErrnoException)?.code;
  const tail = proc.stderr.tail(20);
  const stderr = tail.length ? ` Last stderr lines:\n${tail.join("\n")}` : "";
  if (code === "ENOENT")
    return new ProxyError(
      "upstream-unreachable",
      `Could not start the stdio server "${proc.spec.name}": the command "${proc.spec.command}" was not found.`,
      'Fix "command" in the stdio servers file (an executable on PATH, or an absolute path).',
    );
  if (code === "EACCES")
    return new ProxyError(
      "upstream-unreachable",
      `Could not start the stdio server "${proc.spec.name}": "${proc.spec.command}" is not executable.`,
    );
  if (proc.state === "dead")
    return new ProxyError("upstream-unreachable", `The stdio server "${proc.spec.name}" ${proc.describeExit()} while connecting.${stderr}`);
  if (err instanceof ProxyError) return err;
  const message = (err as Error)?.message ?? String(err);
  if (/timed? ?out/i.test(message))
    return new ProxyError(
      "upstream-timeout",
      `The stdio server "${proc.spec.name}" did not complete the MCP handshake in time: ${message}.${stderr}`,
      "Check that the command starts an MCP server on stdio; raise TOOLSCOPE_REQUEST_TIMEOUT_MS for slow starters.",
    );
  return new ProxyError("upstream-protocol", `The stdio server "${proc.spec.name}" failed the MCP handshake: ${message}.${stderr}`);
}

/** POST /api/connect for `stdio:<name>`: launch the configured server and negotiate its era. */
export async function connectStdio(
  input: { url: string; era: EraChoice; interactive?: boolean; apps?: boolean },
  cfg: StdioConfig,
  registry?: StdioRegistry,
): Promise<ConnectResponse> {
  if (input.era === "legacy-sse")
    throw new ProxyError(
      "bad-request",
      "legacy-sse is an HTTP transport (GET an event stream, POST messages); a stdio server has none.",
      "Connect with era auto, modern or legacy.",
    );
  const spec = await configuredServer(cfg, input.url);
  const reg = registryFor(cfg, registry);
  const proc = reg.create(spec);
  const client = new Client(
    { ...CLIENT_INFO },
    { capabilities: clientCapabilities(input.apps !== false) as never, versionNegotiation: negotiation(input.era) },
  );
  // Starting a process (twice with `auto`: the SDK probes on a sibling) can take far longer than one request.
  const timeoutMs = Math.max(cfg.requestTimeoutMs, STDIO_START_TIMEOUT_MS);
  // Our own abort, cleared once connected: the process outlives this request.
  const ctrl = new AbortController();
  const timer = setTimeout(
    () =>
      ctrl.abort(
        new ProxyError(
          "upstream-timeout",
          `The stdio server "${spec.name}" did not complete the MCP handshake within ${timeoutMs} ms.`,
          "Check that the command starts an MCP server on stdio (its stderr is in this message when it wrote any).",
        ),
      ),
    timeoutMs,
  );
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
  const connection: ConnectionDescriptor = {
    v: 1,
    url: input.url,
    era,
    protocolVersion,
    stdioId: proc.id,
    ...(era === "modern" && discover ? { discover } : {}),
    ...(input.interactive ? { interactive: true as const } : {}),
    ...(input.apps === false ? { apps: false as const } : {}),
  };
  return {
    server,
    connection,
    stderr: proc.stderr.takeNew(),
  };
}

/** POST /api/disconnect for a stdio connection: stop the process. */
export async function disconnectStdio(
  descriptor: ConnectionDescriptor,
  cfg: StdioConfig,
  registry?: StdioRegistry,
): Promise<DisconnectResponse> {
  const reg = registryFor(cfg, registry);
  const proc = descriptor.stdioId ? await reg.stop(descriptor.stdioId, descriptor.url) : undefined;
  if (!proc)
    return {
      ok: true,
      ended: true,
      note: `No process was running for ${descriptor.url} with this connection (already stopped).`,
      exchanges: [],
    };
  return {
    ok: true,
    ended: true,
    note: `Stopped the stdio server "${proc.spec.name}"${proc.pid ? ` (pid ${proc.pid})` : ""}.`,
    exchanges: [],
  };
}

/**
 * A configured stdio server (local mode only): connect launches its process, every later call reaches it through
 * the registry by the descriptor's `stdioId`, on a channel of the process's shared pipe.
 */
export function stdioUpstream(cfg: StdioConfig, registry?: StdioRegistry): Upstream {
  return {
    transport: "stdio",
    cachesLists: false,
    listens: true,
    hasHeaders: false,
    connect: (input) => connectStdio(input, cfg, registry),
    withSession: async (descriptor, _io, run) => {
      const proc = registryFor(cfg, registry).get(descriptor.stdioId, descriptor.url);
      return run(() => proc.channel());
    },
    disconnect: (descriptor) => disconnectStdio(descriptor, cfg, registry),
    extras: (descriptor) => {
      const proc = descriptor.stdioId ? registryFor(cfg, registry).find(descriptor.stdioId, descriptor.url) : undefined;
      return proc ? { stderr: proc.stderr.takeNew() } : {};
    },
  };
}
