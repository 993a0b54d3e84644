import "server-only";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import type { ConnectResponse, EraChoice, HttpExchange, Implementation, UserHeaders } from "@/lib/mcp/contract";
import { CLIENT_CAPABILITIES, CLIENT_INFO, MODERN_PROTOCOL_VERSION } from "@/lib/mcp/meta";
import { createRecorder } from "./recording-fetch.ts";
import type { Target } from "./targets.ts";
import { ExchangeFailure } from "./upstream-exchange.ts";

export interface ConnectOptions {
  target: Target;
  url: string;
  era: EraChoice;
  userHeaders: UserHeaders;
  timeoutMs: number;
  maxBodyBytes: number;
}

function negotiation(era: EraChoice) {
  if (era === "auto") return { mode: "auto" as const };
  if (era === "modern") return { mode: { pin: MODERN_PROTOCOL_VERSION } };
  return undefined; // the SDK's default is the plain legacy initialize handshake
}

/**
 * Connect through the SDK client (era negotiation: server/discover probe, legacy initialize fallback)
 * and describe the server. Returns a descriptor the browser keeps; nothing is held here afterwards.
 */
export async function connectServer(opts: ConnectOptions): Promise<ConnectResponse & { exchanges: HttpExchange[] }> {
  const recorder = createRecorder(opts.target.fetch, { secretHeaderNames: Object.keys(opts.userHeaders), maxBodyBytes: opts.maxBodyBytes });
  const transport = new StreamableHTTPClientTransport(opts.target.url, { fetch: recorder.fetch, requestInit: { headers: opts.userHeaders } });
  const client = new Client({ ...CLIENT_INFO }, { capabilities: CLIENT_CAPABILITIES as never, versionNegotiation: negotiation(opts.era) });
  try {
    await client.connect(transport, { timeout: opts.timeoutMs, signal: AbortSignal.timeout(opts.timeoutMs) });
    const era = client.getProtocolEra() === "modern" ? "modern" : "legacy";
    const protocolVersion = client.getNegotiatedProtocolVersion() ?? "unknown";
    const discover = client.getDiscoverResult() as Record<string, unknown> | undefined;
    const supported = Array.isArray(discover?.supportedVersions) ? (discover.supportedVersions as string[]) : [protocolVersion];
    const sessionId = era === "legacy" ? transport.sessionId : undefined;
    return {
      server: {
        serverInfo: client.getServerVersion() as Implementation | undefined,
        era,
        protocolVersion,
        supportedVersions: supported,
        capabilities: (client.getServerCapabilities() ?? {}) as Record<string, unknown>,
        instructions: client.getInstructions(),
        displayUrl: opts.target.displayUrl,
      },
      connection: { v: 1, url: opts.url, era, protocolVersion, ...(sessionId ? { sessionId } : {}), ...(era === "modern" && discover ? { discover } : {}) },
      exchanges: recorder.exchanges,
    };
  } catch (err) {
    throw new ExchangeFailure(err, recorder.exchanges);
  } finally {
    // Close the client side only: a legacy session stays open for the browser's descriptor.
    await transport.close().catch(() => undefined);
  }
}
