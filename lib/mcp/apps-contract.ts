/**
 * The API of MCP Apps (ext-apps specification 2026-01-26): the view of a tool's `ui://` resource made ready for the
 * sandbox (POST /api/apps/view), and the messages an app sends to its own server through the host (POST
 * /api/apps/rpc). Types only, shared by the routes and the browser.
 */
import type { ConnectionDescriptor, RpcRequest, UserHeaders } from "./contract.ts";
import type { HttpExchange } from "./http-exchange.ts";

export type AppCspList = "connectDomains" | "resourceDomains" | "frameDomains" | "baseUriDomains";

export interface AppViewRequest {
  connection: ConnectionDescriptor;
  headers?: UserHeaders;
  /** The `ui://` resource the tool names (`_meta.ui.resourceUri`). */
  uri: string;
}

export interface AppViewResponse {
  uri: string;
  /** The view's document as the sandbox shows it: the host's Content-Security-Policy first, then the app's HTML. */
  document: string;
  /** The policy itself (also the first element of `document`). */
  policy: string;
  /** What each declared list was granted: told to the app as `hostCapabilities.sandbox.csp`. */
  csp: Record<AppCspList, string[]>;
  /** Declared sources that were not granted, with the reason. */
  dropped: { list: AppCspList; value: string; reason: string }[];
  /** Permissions the view asks for (camera, microphone, geolocation, clipboardWrite): shown, not granted. */
  permissions: string[];
  prefersBorder?: boolean;
  /** The view's size in bytes of UTF-8, against TOOLSCOPE_MAX_APP_HTML_BYTES. */
  bytes: number;
  maxBytes: number;
  /** The resources/read exchange that fetched it. */
  exchanges: HttpExchange[];
}

/**
 * A message from an app to its server. Refused unless its method is one an app may send and, for tools/call, the
 * tool's visibility includes "app"; a tool that is not read-only needs `confirmed: true` (the person said yes in the
 * host). tools/list answers list only the tools an app may call.
 */
export interface AppRpcRequest extends RpcRequest {
  confirmed?: boolean;
}
