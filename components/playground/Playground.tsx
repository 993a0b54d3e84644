"use client";

import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { ConnectResponse, ProxyErrorBody, RpcResponse, Tool, UserHeaders } from "@/lib/mcp/contract";
import { api, ApiError } from "@/lib/playground/api-client";
import { loadConnection, loadHeaders, saveConnection } from "@/lib/playground/session-store";
import { initialRequestText } from "@/lib/playground/initial-request";
import type { EditorDiagnostic } from "@/lib/editor/request-diagnostics";
import { JsonEditorLoader } from "./JsonEditorLoader";
import { HttpExchangeView } from "./HttpExchangeView";
import { ProblemsPanel } from "./ProblemsPanel";
import { ProxyErrorBanner } from "./ProxyErrorBanner";
import { RenderedResult } from "./RenderedResult";
import { ResultTabs } from "./ResultTabs";

interface Props {
  /** The server to talk to: an http(s) URL or `builtin:demo`. */
  server: string;
  /** The tool to prefill a tools/call for. */
  tool?: string;
}

type Outcome = { kind: "response"; rpc: RpcResponse } | { kind: "proxy-error"; error: ProxyErrorBody["error"] };

function toProxyError(err: unknown): ProxyErrorBody["error"] {
  return err instanceof ApiError ? err.body : { kind: "internal", message: (err as Error).message };
}

/** The playground: connect, edit a JSON-RPC message with live diagnostics, send it, see the answer three ways. */
export function Playground({ server, tool }: Props) {
  const [conn, setConn] = useState<ConnectResponse | null>(null);
  const [tools, setTools] = useState<Tool[]>([]);
  const [text, setText] = useState<string | null>(null);
  const [setupError, setSetupError] = useState<ProxyErrorBody["error"] | null>(null);
  const [diagnostics, setDiagnostics] = useState<EditorDiagnostic[]>([]);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [parseError, setParseError] = useState<string | null>(null);
  const abortRef = useRef<AbortController | null>(null);
  const headers: UserHeaders = useMemo(() => (typeof window === "undefined" ? {} : loadHeaders(server)), [server]);

  useEffect(() => {
    let cancelled = false;
    (async () => {
      try {
        let c = loadConnection(server) ?? (await api.connect({ url: server, era: "auto", headers }));
        saveConnection(server, c);
        let list;
        try {
          list = await api.tools(c.connection, headers);
        } catch (err) {
          // A stale descriptor (e.g. an expired legacy session): connect afresh once.
          if (!(err instanceof ApiError) || err.body.kind !== "upstream-protocol") throw err;
          c = await api.connect({ url: server, era: "auto", headers });
          saveConnection(server, c);
          list = await api.tools(c.connection, headers);
        }
        if (cancelled) return;
        setConn(c);
        setTools(list.tools);
        setText(initialRequestText(list.tools, tool));
      } catch (err) {
        if (!cancelled) setSetupError(toProxyError(err));
      }
    })();
    return () => {
      cancelled = true;
    };
  }, [server, tool, headers]);

  const send = useCallback(async () => {
    if (!conn || text === null) return;
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch (err) {
      setParseError(`The request is not valid JSON, so it cannot be sent: ${(err as Error).message}`);
      return;
    }
    setParseError(null);
    abortRef.current?.abort();
    const ctrl = new AbortController();
    abortRef.current = ctrl;
    setBusy(true);
    try {
      const rpc = await api.rpc(conn.connection, message, headers, ctrl.signal);
      setOutcome({ kind: "response", rpc });
    } catch (err) {
      if ((err as Error).name !== "AbortError") setOutcome({ kind: "proxy-error", error: toProxyError(err) });
    } finally {
      if (abortRef.current === ctrl) {
        abortRef.current = null;
        setBusy(false);
      }
    }
  }, [conn, text, headers]);

  const cancel = () => {
    abortRef.current?.abort();
    abortRef.current = null;
    setBusy(false);
  };

  if (setupError) return <ProxyErrorBanner error={setupError} />;
  if (!conn || text === null) return <p className="text-sm text-zinc-500" data-testid="playground-loading">Connecting to {server}…</p>;

  const sentMethod = outcome?.kind === "response" ? String((outcome.rpc.sent as { method?: unknown }).method ?? "") : undefined;
  const sentTool = outcome?.kind === "response" ? tools.find((t) => t.name === (outcome.rpc.sent as { params?: { name?: unknown } }).params?.name) : undefined;
  const errors = diagnostics.filter((d) => d.severity === "error").length;

  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <section aria-label="Request" className="min-w-0">
        <div className="mb-2 flex flex-wrap items-center gap-2 text-sm">
          <span className="rounded bg-zinc-100 px-2 py-0.5 font-mono text-xs dark:bg-zinc-800" data-testid="connection-era">
            {conn.server.era} · {conn.server.protocolVersion}
          </span>
          <span className="truncate text-zinc-500">{conn.server.serverInfo?.title ?? conn.server.serverInfo?.name ?? server}</span>
          <span className="ml-auto" />
          {busy ? (
            <button type="button" onClick={cancel} className="rounded-md border border-zinc-300 px-3 py-1.5 dark:border-zinc-700">
              Cancel
            </button>
          ) : null}
          <button type="button" onClick={send} disabled={busy} data-testid="send" className="rounded-md bg-accent-600 px-4 py-1.5 font-medium text-white hover:bg-accent-700 disabled:opacity-60" title="Send (Ctrl/Cmd+Enter)">
            {busy ? "Sending…" : "Send"}
          </button>
        </div>
        <JsonEditorLoader value={text} onChange={setText} tools={tools} era={conn.server.era} onSend={send} onDiagnostics={setDiagnostics} height="min(60vh, 560px)" />
        {errors > 0 && <p className="mt-1 text-xs text-amber-700 dark:text-amber-400">This request has {errors} problem{errors === 1 ? "" : "s"}; you can still send it to see how the server reacts.</p>}
        {parseError && <p role="alert" className="mt-2 text-sm text-red-700 dark:text-red-400">{parseError}</p>}
        <ProblemsPanel diagnostics={diagnostics} />
      </section>
      <section aria-label="Response" className="min-w-0" data-testid="response-panel">
        {!outcome && <p className="text-sm text-zinc-500">Press Send (or Ctrl/Cmd+Enter) to see the response here.</p>}
        {outcome?.kind === "proxy-error" && <ProxyErrorBanner error={outcome.error} />}
        {outcome?.kind === "response" && (
          <ResultTabs
            testId="result-tabs"
            tabs={[
              { id: "rendered", label: "Rendered", content: outcome.rpc.response ? <RenderedResult response={outcome.rpc.response} method={sentMethod} tool={sentTool} /> : <p className="text-sm">No response body (notification accepted).</p> },
              { id: "json", label: "JSON", content: <pre data-testid="raw-json" className="max-h-[70vh] overflow-auto rounded bg-zinc-50 p-3 font-mono text-xs dark:bg-zinc-900">{JSON.stringify(outcome.rpc.response, null, 2)}</pre> },
              { id: "http", label: `HTTP · ${Math.round(outcome.rpc.durationMs)} ms`, content: <HttpExchangeView exchanges={outcome.rpc.exchanges} added={outcome.rpc.added} /> },
            ]}
          />
        )}
      </section>
    </div>
  );
}
