/**
 * Lists a server's tools through the MCP client core alone, as any Node program would: `node --import tsx
 * lib/upstream/testing/list-tools.ts <url>` prints the tool names as a JSON array. No Next.js, no `react-server`
 * condition (under plain `node` the `server-only` package throws when imported, so this also proves the core never
 * imports it). lib/upstream/plain-node.test.ts runs it against real servers.
 */
import { listAllTools, SKILL_LIMIT_DEFAULTS, upstreamFor, type UpstreamSettings } from "../index.ts";

const SETTINGS: UpstreamSettings = {
  mode: "local",
  allowPrivateNetwork: true,
  egressAllow: [],
  requestTimeoutMs: 10_000,
  maxResponseBytes: 10_000_000,
  maxToolPages: 50,
  maxTools: 5_000,
  eraCacheTtlMs: 0,
  sessionWelcomeMs: 0,
  maxSessionWelcomes: 0,
  stdioConfigPath: "./toolscope.servers.json",
  stdioIdleMs: 60_000,
  stdioMaxProcesses: 1,
  maxConnectionsPerOrigin: 8,
  ...SKILL_LIMIT_DEFAULTS,
};

const url = process.argv[2];
if (!url) throw new Error("usage: list-tools.ts <server URL>");
const ctx = { config: SETTINGS, origin: "http://127.0.0.1" };
const { connection } = await (await upstreamFor(url, ctx)).connect({ url, era: "auto", userHeaders: {}, interactive: false });
const list = await listAllTools(
  await upstreamFor(connection, ctx),
  connection,
  { userHeaders: {}, timeoutMs: SETTINGS.requestTimeoutMs, maxBodyBytes: SETTINGS.maxResponseBytes, interactive: false },
  {
    timeoutMs: SETTINGS.requestTimeoutMs,
    maxPages: SETTINGS.maxToolPages,
    maxTools: SETTINGS.maxTools,
    maxDescriptionChars: 16_384,
    deadlineMs: 20_000,
    schemaLimits: { maxBytes: 262_144, maxDepth: 64 },
  },
);
process.stdout.write(JSON.stringify({ era: connection.era, tools: list.tools.map((t) => t.name) }));
