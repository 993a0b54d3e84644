"use client";

import { useEffect, useState, type ComponentType } from "react";
import type { ConnectionDescriptor, Tool, UserHeaders } from "@/lib/mcp/contract";
import { toolApp } from "@/lib/docs/apps/tool-app";
import { isObject } from "@/lib/json/guards";
import type { AppHostProps } from "./AppHost";

/**
 * The host and its library (@modelcontextprotocol/ext-apps, about 130 KB gzip) are their own chunk, fetched only when a
 * view is shown: not with the page, and not among the parts the playground preloads when idle (lazy-panels.tsx).
 */
let loaded: ComponentType<AppHostProps> | null = null;

function LazyAppHost(props: AppHostProps) {
  const [Host, setHost] = useState<ComponentType<AppHostProps> | null>(() => loaded);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    if (Host) return;
    let live = true;
    import("./AppHost").then(
      (m) => {
        loaded = m.default;
        if (live) setHost(() => m.default);
      },
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, [Host]);
  if (Host) return <Host {...props} />;
  return (
    <p className="text-sm text-zinc-500" role={failed ? "alert" : undefined}>
      {failed ? "The app host could not be loaded: reload the page to try again." : "Loading the app host…"}
    </p>
  );
}

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
    <LazyAppHost
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
