/**
 * A target's definitions as a snapshot: read from the file, or taken from the live server through the client core
 * (connect, every tool page, prompts, resources, templates), the server stopped and its temporary files removed
 * whatever happens.
 */
import type { UserHeaders } from "../mcp/contract.ts";
import { classifyError, ProxyError } from "../upstream/policy.ts";
import type { CliOutput } from "./cli-io.ts";
import { LiveServer, type LiveLimits } from "./live-server.ts";
import { normaliseSnapshot, SNAPSHOT_FORMAT, snapshotSource, type SnapshotFile } from "./snapshot-file.ts";
import type { Target } from "./target.ts";

/** Run `fn` with the live server of `target` connected; it is closed (and a stdio process stopped) afterwards. */
export async function withLiveServer<T>(
  target: Extract<Target, { kind: "live" }>,
  headers: UserHeaders,
  limits: LiveLimits,
  out: CliOutput,
  fn: (server: LiveServer) => Promise<T>,
): Promise<T> {
  try {
    out.progress(`connecting to ${target.label}…`);
    const server = await LiveServer.connect(target.url, headers, limits, target.stdioConfigPath);
    try {
      const s = server.connected.server;
      out.progress(`connected: ${s.serverInfo?.name ?? "server"} ${s.serverInfo?.version ?? ""} (${s.era}, ${s.protocolVersion})`);
      return await fn(server);
    } finally {
      await server.close();
    }
  } catch (err) {
    // What the web service's routes do with a failure: classified by kind (unreachable, timeout, auth, protocol).
    throw err instanceof ProxyError ? err : classifyError(err, target.url, limits.timeoutMs);
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
export async function loadTarget(target: Target, headers: UserHeaders, limits: LiveLimits, out: CliOutput): Promise<SnapshotFile> {
  if (target.kind === "snapshot") return target.snapshot;
  return withLiveServer(target, headers, limits, out, (server) =>
    takeSnapshot(server, target.url.startsWith("stdio:") ? target.label : target.url),
  );
}
