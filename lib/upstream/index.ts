/**
 * The MCP client core's entry point: everything a program outside lib/upstream uses (the web service in lib/server,
 * a command line, a plain `node` script). Runs anywhere Node runs: no Next.js, no React, no server-only; settings are
 * passed in (UpstreamSettings), builtin in-process servers are injected (BuiltinTarget). docs/architecture.md has the
 * map and the path of one call.
 */
export * from "./policy.ts";
export type { BuiltinTarget, Target } from "./egress/targets.ts";
export type { ChannelOpener, ConnectInput, SessionIo, Upstream, UpstreamConfig } from "./upstream.ts";
export { upstreamFor } from "./upstream-for.ts";
export { listAllTools, type ListCaps } from "./calls/list-tools.ts";
export { sendRpc } from "./calls/send-rpc.ts";
export { getSkill, listSkills, readSkillDirectory, readSkillFile, rpcSender, type SkillsCallOptions } from "./calls/skills/skills.ts";
export type { SkillLimits } from "./calls/skills/skill-refusals.ts";
export type { SkillSender } from "./calls/skills/skills-wire.ts";
export { ExchangeFailure } from "./exchange/exchange-core.ts";
export {
  NO_ANSWER,
  pingAnswer,
  unattendedAsker,
  WITHDRAWN,
  type AnswerBody,
  type AskOutcome,
  type ServerRequestAsker,
} from "./exchange/server-request-asker.ts";
export { streamLimitsFor } from "./exchange/stream-watchdog.ts";
export { forgetEraVerdict } from "./transports/connect.ts";
export { ERA_CACHE_TTL_MS, SKILL_LIMIT_DEFAULTS, type UpstreamSettings } from "./settings.ts";
export { normaliseServerUrl } from "./transports/era-cache.ts";
export { parseDisconnectRequest } from "./transports/disconnect.ts";
export { withSessionRecovery } from "./transports/session-recovery.ts";
export { listStdioServers } from "./transports/stdio-config.ts";
