"use client";

import dynamic from "next/dynamic";
import type { ConnectionDescriptor, Tool, UserHeaders } from "@/lib/mcp/contract";
import { toolApp } from "@/lib/docs/apps/tool-app";
import { isObject } from "@/lib/json/guards";

/** The host and its library (@modelcontextprotocol/ext-apps) are their own chunk, fetched only when an app is shown. */
const AppHost = dynamic(() => import("./AppHost"), {
  ssr: false,
  loading: () => <p className="text-sm text-zinc-500">Loading the app host…</p>,
});

interface Props {
  connection: ConnectionDescriptor;
  headers: UserHeaders;
  tools: readonly Tool[];
  /** The tools/call message as sent and its JSON-RPC response. */
  message: Record<string, unknown>;
  response: Record<string, unknown>;
}

/**
 * The MCP App of a tools/call's tool, beside its result: shown when the tool names a `ui://` view, the connection
 * declared MCP Apps support (the playground's switch) and the call returned a result. Otherwise nothing.
 */
export function AppPanel({ connection, headers, tools, message, response }: Props) {
  if (connection.apps === false || message.method !== "tools/call" || !isObject(response.result)) return null;
  const params = isObject(message.params) ? message.params : {};
  const tool = tools.find((t) => t.name === params.name);
  const uri = tool ? toolApp(tool)?.resourceUri : undefined;
  if (!tool || !uri) return null;
  return (
    <AppHost
      connection={connection}
      headers={headers}
      tool={tool}
      tools={tools}
      uri={uri}
      args={isObject(params.arguments) ? params.arguments : {}}
      result={response.result}
    />
  );
}
