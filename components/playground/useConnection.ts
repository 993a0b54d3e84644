"use client";

import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { ConnectionDescriptor, ConnectResponse, Era, ProxyErrorBody, Tool, ToolsResponse, UserHeaders } from "@/lib/mcp/contract";
import { api, ApiError } from "@/lib/client/api-client";
import { loadPrefs } from "@/lib/playground/stores/prefs-store";
import { loadConnection, loadHeaders, saveConnection } from "@/lib/playground/stores/session-store";
import { NO_ATTEMPTS } from "@/lib/playground/oauth/oauth-policy";
import { withOAuthHeader } from "@/lib/playground/oauth/oauth-session";
import type { OAuthController } from "./oauth/useOAuth";

function toProxyError(err: unknown): ProxyErrorBody["error"] {
  return err instanceof ApiError ? err.body : { kind: "internal", message: (err as Error).message };
}

/** The parts of a tools response besides the tools themselves. */
export type ToolListInfo = Pick<ToolsResponse, "excluded" | "ttlMs" | "cacheScope" | "fetchedAt">;

function toolListInfo(list: ToolsResponse): ToolListInfo {
  return { excluded: list.excluded ?? [], ttlMs: list.ttlMs, cacheScope: list.cacheScope, fetchedAt: list.fetchedAt };
}

/** What useConnection needs of the server's OAuth sign-in (useOAuth). */
type ConnectionAuth = Pick<OAuthController, "session" | "resolveRefusal" | "ensureFresh" | "noteRetry">;

/**
 * Connect to `server` (reusing the descriptor remembered in this browser when its era fits) and list its tools.
 * `era` pins the protocol era (a share link carries it); otherwise `auto`. With `auth`, a refusal (`upstream-auth`)
 * waits for the token (a refresh, or the user's sign-in) and connects again with it. `apps` false connects without
 * declaring the MCP Apps extension (a change connects again).
 */
export function useConnection(server: string, era?: Era, auth?: ConnectionAuth, apps = true) {
  const [conn, setConn] = useState<ConnectResponse | null>(null);
  const [tools, setTools] = useState<Tool[] | null>(null);
  /** What came with the list besides the tools (the explorer shows the excluded ones and the cache hints). */
  const [listInfo, setListInfo] = useState<ToolListInfo | null>(null);
  const [error, setError] = useState<ProxyErrorBody["error"] | null>(null);
  /** The user's own headers (typed for this server, sessionStorage): never with the OAuth token in them. */
  const userHeaders: UserHeaders = useMemo(() => (typeof window === "undefined" ? {} : loadHeaders(server)), [server]);
  const oauthState = auth?.session?.state;
  /** What every request sends: the user's headers, with `Authorization: Bearer` over them when signed in. */
  const headers: UserHeaders = useMemo(() => withOAuthHeader(userHeaders, oauthState), [userHeaders, oauthState]);
  const authRef = useRef(auth);
  useEffect(() => {
    authRef.current = auth;
  });

  useEffect(() => {
    let cancelled = false;
    (async () => {
      // Read once per connect: a refresh or sign-in later changes `headers` without connecting again.
      let headers = withOAuthHeader(userHeaders, await authRef.current?.ensureFresh());
      let attempts = NO_ATTEMPTS;
      let refused = false;
      for (;;) {
        try {
          await connectOnce(headers);
          if (refused) authRef.current?.noteRetry({ what: "connect and tools/list", ok: true, summary: "connected with the token" });
          return;
        } catch (err) {
          const resolution =
            err instanceof ApiError && err.body.kind === "upstream-auth" && authRef.current && !cancelled
              ? await authRef.current.resolveRefusal(err.body, attempts, headers)
              : null;
          if (cancelled) return;
          if (!resolution) {
            if (refused) authRef.current?.noteRetry({ what: "connect and tools/list", ok: false, summary: toProxyError(err).message });
            return setError(toProxyError(err));
          }
          refused = true;
          attempts = resolution.attempts;
          headers = withOAuthHeader(userHeaders, resolution.state);
        }
      }
    })();

    async function connectOnce(headers: UserHeaders) {
      const remembered = loadConnection(server);
      // interactive: a person answers the server's requests here (elicitation, sampling, roots), so a legacy session
      // declares those capabilities. A legacy descriptor remembered from before that declares none: connect afresh.
      // roots: a legacy server may ask roots/list right after connecting, before any call (lib/upstream/transports/session-welcome.ts).
      const fresh = () => {
        const { roots } = loadPrefs();
        return api.connect({
          url: server,
          era: era ?? "auto",
          headers,
          interactive: true,
          ...(roots.length > 0 ? { roots } : {}),
          ...(apps ? {} : { apps: false }),
        });
      };
      const reusable =
        remembered &&
        (!era || remembered.server.era === era) &&
        (remembered.connection.apps !== false) === apps &&
        (remembered.connection.era !== "legacy" || remembered.connection.interactive);
      let c = reusable ? remembered : await fresh();
      saveConnection(server, c);
      let list;
      try {
        list = await api.tools(c.connection, headers);
      } catch (err) {
        // A stale descriptor (e.g. an expired legacy session): connect afresh once.
        if (!(err instanceof ApiError) || err.body.kind !== "upstream-protocol") throw err;
        c = await fresh();
        saveConnection(server, c);
        list = await api.tools(c.connection, headers);
      }
      if (list.connection) {
        c = { ...c, connection: list.connection };
        saveConnection(server, c);
      }
      if (cancelled) return;
      setConn(c);
      setTools(list.tools);
      setListInfo(toolListInfo(list));
    }
    return () => {
      cancelled = true;
    };
  }, [server, era, userHeaders, apps]);

  /** Keep a replacement descriptor the proxy handed back (e.g. a new legacy session). */
  const replaceDescriptor = useCallback(
    (connection: ConnectionDescriptor) => {
      setConn((c) => {
        if (!c) return c;
        const next = { ...c, connection };
        saveConnection(server, next);
        return next;
      });
    },
    [server],
  );

  /**
   * Fetch the tool list again, past the proxy's cache: the server may have changed it (an "unknown tool" answer is
   * reason enough, caching.mdx §Freshness Calculation). Resolves with the new list, or null when it failed.
   */
  const refreshTools = useCallback(async (): Promise<Tool[] | null> => {
    if (!conn) return null;
    try {
      const list = await api.tools(conn.connection, headers, undefined, true);
      if (list.connection) replaceDescriptor(list.connection);
      setTools(list.tools);
      setListInfo(toolListInfo(list));
      return list.tools;
    } catch {
      return null;
    }
  }, [conn, headers, replaceDescriptor]);

  return { conn, tools, listInfo, error, headers, userHeaders, replaceDescriptor, refreshTools };
}
