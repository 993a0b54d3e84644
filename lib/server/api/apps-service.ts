import "server-only";
import type { AppRpcRequest, AppViewRequest, AppViewResponse } from "@/lib/mcp/apps-contract";
import type { RpcResponse, Tool, UserHeaders } from "@/lib/mcp/contract";
import { appView } from "@/lib/docs/apps/app-resource";
import { appCsp } from "@/lib/docs/apps/app-csp";
import { appDocument } from "@/lib/docs/apps/app-document";
import { appCallVerdict, appVisibleTools } from "@/lib/docs/apps/app-calls";
import { isObject } from "@/lib/json/guards";
import { ProxyError } from "@/lib/upstream/policy";
import type { ApiContext } from "./api-route.ts";
import { rpc, tools } from "./proxy-service.ts";
import { knownTools } from "../tool-lists/known-tools.ts";

type WithHeaders<T> = T & { headers: UserHeaders };

/** The id Toolscope gives the messages it sends for an app (the app's own id travels in the bridge, not upstream). */
let nextId = 1;

/**
 * POST /api/apps/view: the tool's `ui://` resource read from its server (resources/read, through the same call path as
 * any message), checked (type, size by bytes, markup) and wrapped in the policy built from its declared domains, which
 * never grants Toolscope's own origin, nor loopback and private hosts on a hosted instance.
 */
export async function appViewFor(input: WithHeaders<AppViewRequest>, ctx: ApiContext): Promise<AppViewResponse> {
  const answer = await rpc(
    {
      connection: input.connection,
      headers: input.headers,
      message: { jsonrpc: "2.0", id: `toolscope-app-view-${nextId++}`, method: "resources/read", params: { uri: input.uri } },
    },
    { ...ctx, emit: undefined, asker: undefined },
  );
  const response = answer.response;
  if (!response || !isObject(response.result)) {
    const error =
      isObject(response?.error) && typeof response.error.message === "string" ? `: ${response.error.message.slice(0, 300)}` : "";
    throw new ProxyError(
      "upstream-protocol",
      `The server did not return the app's view ${input.uri.slice(0, 200)}${error || " (no result)"}.`,
      "The tool's _meta.ui.resourceUri must name a resource the server serves with resources/read.",
    );
  }
  const maxBytes = ctx.config.maxAppHtmlBytes;
  const view = appView(response.result, input.uri, { maxBytes });
  if (!view.ok) throw new ProxyError("upstream-protocol", view.problem);
  const { policy, granted, dropped } = appCsp(view.view.csp, { denyOrigins: [ctx.origin], refusePrivate: ctx.config.mode === "hosted" });
  const document = appDocument(view.view.html, policy);
  return {
    uri: input.uri,
    document,
    policy,
    csp: granted,
    dropped,
    permissions: view.view.permissions,
    ...(view.view.prefersBorder !== undefined ? { prefersBorder: view.view.prefersBorder } : {}),
    bytes: view.view.bytes,
    maxBytes,
    exchanges: answer.exchanges,
  };
}

/**
 * POST /api/apps/rpc: a message an app sent to its own server (the connection is the app's, chosen by the host, never by
 * the app). The host library forwards whatever it is given, so the rule is applied here as well as in the host: the
 * method list, tools/call only of tools whose visibility includes "app", and a tool that may modify only once the
 * person confirmed it. A tools/list answer keeps only the tools an app may call.
 */
export async function appRpc(
  input: WithHeaders<AppRpcRequest> & { message: Record<string, unknown> },
  ctx: ApiContext,
): Promise<RpcResponse> {
  const method = input.message.method;
  const verdict = appCallVerdict(method, input.message.params, method === "tools/call" ? await definitionsForAppCall(input, ctx) : []);
  if (!verdict.ok) throw new ProxyError("forbidden", verdict.message);
  if (verdict.confirm && input.confirmed !== true)
    throw new ProxyError(
      "forbidden",
      `The app called "${verdict.tool?.name}", which may modify (readOnlyHint is not true): the person must allow it first.`,
      'The host asks before sending such a call, and sends it with "confirmed": true.',
    );
  const answer = await rpc(input, ctx);
  if (method !== "tools/list" || !answer.response || !isObject(answer.response.result)) return answer;
  const result = answer.response.result;
  const listed = Array.isArray(result.tools) ? result.tools.filter(isObject) : [];
  return { ...answer, response: { ...answer.response, result: { ...result, tools: appVisibleTools(listed as Tool[]) } } };
}

/**
 * The definition an app's tools/call is judged by: the one this process last listed (the host listed the server when
 * it connected), else the server's list (a cached one, or one walk: another instance behind the load balancer). Not a
 * list walk per call: an app that polls a tool would double its server's traffic.
 */
async function definitionsForAppCall(
  input: WithHeaders<AppRpcRequest> & { message: Record<string, unknown> },
  ctx: ApiContext,
): Promise<Tool[]> {
  const params = input.message.params;
  const name = isObject(params) && typeof params.name === "string" ? params.name : undefined;
  const known = name === undefined ? undefined : knownTools().find(input.connection, input.headers, name);
  if (known) return [known];
  return (await tools({ connection: input.connection, headers: input.headers }, { ...ctx, emit: undefined })).tools;
}
