/**
 * A target's definitions as a snapshot: read from the file, or taken from the live server through the client core
 * (connect, every tool page, prompts, resources, templates), the server stopped and its temporary files removed
 * whatever happens.
 */
import type { UserHeaders } from "../mcp/contract.ts";
import { ExchangeFailure } from "@/lib/upstream";
import { classifyError, ProxyError } from "../upstream/policy.ts";
import { clientCredentialsToken, type ClientCredentials } from "./client-credentials.ts";
import type { CliOutput } from "./cli-io.ts";
import { CliError } from "./exit-codes.ts";
import { LiveServer, type LiveLimits } from "./live-server.ts";
import { normaliseSnapshot, SNAPSHOT_FORMAT, snapshotSource, type SnapshotFile } from "./snapshot-file.ts";
import type { Target } from "./target.ts";

/** How a command proves who it is: its headers, and a client for the client credentials grant when one is named. */
export interface Access {
  headers: UserHeaders;
  credentials?: ClientCredentials;
}

/** A failure of the client core as a ProxyError, classified the way the web service's routes do it. */
function asProxyError(err: unknown, url: string, timeoutMs: number): ProxyError {
  if (err instanceof ProxyError) return err;
  const cause = err instanceof ExchangeFailure ? err.cause : err;
  return classifyError(cause, url, timeoutMs, err instanceof ExchangeFailure ? err.exchanges : undefined);
}

/** Connect; a 401 with a client named in the flags gets a token by the client credentials grant and connects again. */
async function connect(target: Extract<Target, { kind: "live" }>, access: Access, limits: LiveLimits, out: CliOutput): Promise<LiveServer> {
  try {
    return await LiveServer.connect(target.url, access.headers, limits, target.stdioConfigPath);
  } catch (err) {
    const failure = asProxyError(err, target.url, limits.timeoutMs);
    if (failure.kind !== "upstream-auth" || !access.credentials || target.url.startsWith("stdio:")) throw failure;
    out.progress(`the server wants a token: client credentials grant for ${access.credentials.clientId}…`);
    const token = await clientCredentialsToken(target.url, failure.detail?.auth, access.credentials, limits.timeoutMs, (text) =>
      out.progress(text),
    );
    out.addSecrets([token]);
    // For this server only: the other side of a diff gets its own token, never this one.
    return LiveServer.connect(target.url, { ...access.headers, Authorization: `Bearer ${token}` }, limits, target.stdioConfigPath);
  }
}

/** Run `fn` with the live server of `target` connected; it is closed (and a stdio process stopped) afterwards. */
export async function withLiveServer<T>(
  target: Extract<Target, { kind: "live" }>,
  access: Access,
  limits: LiveLimits,
  out: CliOutput,
  fn: (server: LiveServer) => Promise<T>,
): Promise<T> {
  try {
    out.progress(`connecting to ${target.label}…`);
    const server = await connect(target, access, limits, out);
    try {
      const s = server.connected.server;
      out.progress(`connected: ${s.serverInfo?.name ?? "server"} ${s.serverInfo?.version ?? ""} (${s.era}, ${s.protocolVersion})`);
      return await fn(server);
    } finally {
      await server.close();
    }
  } catch (err) {
    // What the web service's routes do with a failure: classified by kind (unreachable, timeout, auth, protocol).
    throw err instanceof CliError ? err : asProxyError(err, target.url, limits.timeoutMs);
  } finally {
    target.cleanup();
  }
}

/** The definitions of a live server, as a snapshot. */
export async function takeSnapshot(server: LiveServer, source: string): Promise<SnapshotFile> {
  const tools = await server.tools();
  const other = await server.otherLists();
  const { displayUrl: _displayUrl, ...summary } = server.connected.server;
  const warnings = [...tools.warnings, ...other.warnings];
  return normaliseSnapshot({
    format: SNAPSHOT_FORMAT,
    source: snapshotSource(source),
    server: summary,
    list: {
      tools: tools.tools,
      excluded: tools.excluded,
      ...(tools.ttlMs !== undefined ? { ttlMs: tools.ttlMs } : {}),
      ...(tools.cacheScope !== undefined ? { cacheScope: tools.cacheScope } : {}),
      ...(warnings.length ? { warnings } : {}),
    },
    prompts: other.prompts,
    resources: other.resources,
    resourceTemplates: other.resourceTemplates,
  });
}

/** The snapshot of any target. */
export async function loadTarget(target: Target, access: Access, limits: LiveLimits, out: CliOutput): Promise<SnapshotFile> {
  if (target.kind === "snapshot") return target.snapshot;
  return withLiveServer(target, access, limits, out, (server) =>
    takeSnapshot(server, target.url.startsWith("stdio:") ? target.label : target.url),
  );
}
