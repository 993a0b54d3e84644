/**
 * The core's light entry point: errors as data and the egress policy, without the transports. The web service's
 * request guard, OAuth flow and icon proxy use these (so the proxy middleware's module graph stays free of the MCP
 * SDK client); lib/upstream/index.ts re-exports them with the client.
 */
export { BlockedTargetError, createSafeFetch, type Resolver } from "./egress/egress.ts";
export { guardedFetch } from "./egress/targets.ts";
export { budgetLimits, withUpstreamBudget } from "./egress/upstream-budget.ts";
export { classifyError, errorBody, errorHeaders, errorResponse, ProxyError } from "./errors/proxy-error.ts";
export { requestSecrets, withRequestSecrets } from "./errors/request-secrets.ts";
