/**
 * What an MCP App may ask of its server through the host (ext-apps specification 2026-01-26, "Visibility"): a fixed
 * list of methods, on the app's own server connection only, and `tools/call` only for tools whose visibility includes
 * "app" — the host library forwards any call it is given, so the host must check this itself. One rule for the
 * playground's host and the API route that carries the calls.
 */
import type { Tool } from "../../mcp/contract.ts";
import { isObject } from "../../json/guards.ts";
import { toolApp } from "./tool-app.ts";

/** The methods an app may send to its server. Anything else (sampling, elicitation, logging, subscriptions) is refused. */
export const APP_METHODS = ["tools/call", "tools/list", "resources/read", "resources/list", "resources/templates/list"] as const;
export type AppMethod = (typeof APP_METHODS)[number];

export type AppCallVerdict = { ok: true; method: AppMethod; tool?: Tool; confirm: boolean } | { ok: false; code: number; message: string };

/** Whether an app may call `tool`: its visibility (default ["model", "app"]) includes "app". */
export function appMayCall(tool: Tool): boolean {
  return (toolApp(tool)?.visibility ?? ["model", "app"]).includes("app");
}

/** The tools an app is told about by `tools/list`: the ones it may call. */
export function appVisibleTools(tools: readonly Tool[]): Tool[] {
  return tools.filter(appMayCall);
}

/**
 * May the app send `method` with `params`, given the server's `tools`? A tools/call of a tool that is not read-only
 * (readOnlyHint is not true) needs the person's confirmation first, as in the playground.
 */
export function appCallVerdict(method: unknown, params: unknown, tools: readonly Tool[]): AppCallVerdict {
  if (typeof method !== "string" || !(APP_METHODS as readonly string[]).includes(method))
    return {
      ok: false,
      code: -32601,
      message: `An app may not send ${typeof method === "string" ? `"${method.slice(0, 100)}"` : "a message without a method"}: only ${APP_METHODS.join(", ")} reach its server.`,
    };
  if (method !== "tools/call") return { ok: true, method: method as AppMethod, confirm: false };
  const name = isObject(params) && typeof params.name === "string" ? params.name : undefined;
  if (name === undefined) return { ok: false, code: -32602, message: "tools/call from an app needs params.name, the tool to call." };
  const tool = tools.find((t) => t.name === name);
  if (!tool) return { ok: false, code: -32602, message: `The app called "${name.slice(0, 100)}", which this server does not list.` };
  if (!appMayCall(tool))
    return {
      ok: false,
      code: -32602,
      message: `The app called "${name.slice(0, 100)}", whose visibility does not include "app": only the agent may call it.`,
    };
  const readOnly = isObject(tool.annotations) && tool.annotations.readOnlyHint === true;
  return { ok: true, method: "tools/call", tool, confirm: !readOnly };
}
