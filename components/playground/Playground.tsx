"use client";

import { useCallback, useState } from "react";
import type { Era, Tool } from "@/lib/mcp/contract";
import type { EditorDiagnostic } from "@/lib/editor/request-diagnostics";
import { hintSummary, isEffectivelyDestructive } from "@/lib/docs/annotations";
import { initialRequestText } from "@/lib/playground/initial-request";
import { MAX_MRTR_ROUNDS } from "@/lib/playground/mrtr";
import { loadPrefs, savePrefs, type PlaygroundPrefs } from "@/lib/playground/prefs-store";
import { ConfirmDestructiveDialog } from "./ConfirmDestructiveDialog";
import { ExchangeView } from "./ExchangeView";
import { JsonEditorLoader } from "./JsonEditorLoader";
import { MrtrDialog } from "./MrtrDialog";
import { ProblemsPanel } from "./ProblemsPanel";
import { ProxyErrorBanner } from "./ProxyErrorBanner";
import { SplitPane } from "./SplitPane";
import { useConnection } from "./useConnection";
import { useExchangeRunner, type Exchange } from "./useExchangeRunner";

/** What a share link (or a history replay) puts in the playground. Nothing is sent until the user presses Send. */
export interface PlaygroundInitial {
  era?: Era;
  request: string;
  /** A response carried by the link, shown as such (never re-sent). */
  response?: unknown;
}

interface Props {
  /** The server to talk to: an http(s) URL or `builtin:demo`. */
  server: string;
  /** The tool to prefill a tools/call for. */
  tool?: string;
  initial?: PlaygroundInitial;
}

type Pending = { message: Record<string, unknown>; text: string; tool: Tool };

/** The playground: connect, edit a JSON-RPC message with live diagnostics, send it, answer MRTR input requests, see the answer three ways. */
export function Playground({ server, tool, initial }: Props) {
  const { conn, tools, error: setupError, headers, replaceDescriptor } = useConnection(server, initial?.era);
  const [edited, setEdited] = useState<string | null>(initial?.request ?? null);
  const [diagnostics, setDiagnostics] = useState<EditorDiagnostic[]>([]);
  const [parseError, setParseError] = useState<string | null>(null);
  const [prefs, setPrefs] = useState<PlaygroundPrefs>(() => loadPrefs());
  const [confirming, setConfirming] = useState<Pending | null>(null);
  const updatePrefs = (patch: Partial<PlaygroundPrefs>) => setPrefs(savePrefs(patch));

  const onFinished = useCallback((_ex: Exchange) => undefined, []);
  const runner = useExchangeRunner({ connection: conn?.connection, headers, onConnection: replaceDescriptor, onFinished });
  const text = edited ?? (tools ? initialRequestText(tools, tool) : null);
  const serverLabel = conn ? `${conn.server.serverInfo?.title ?? conn.server.serverInfo?.name ?? "server"} (${conn.server.displayUrl})` : server;

  const send = useCallback(() => {
    if (!conn || text === null) return;
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch (err) {
      setParseError(`The request is not valid JSON, so it cannot be sent: ${(err as Error).message}`);
      return;
    }
    setParseError(null);
    if (typeof message !== "object" || message === null || Array.isArray(message)) {
      setParseError("The request must be one JSON object (a JSON-RPC message); batches are not part of MCP.");
      return;
    }
    const msg = message as Record<string, unknown>;
    const target = msg.method === "tools/call" ? tools?.find((t) => t.name === (msg.params as { name?: unknown } | undefined)?.name) : undefined;
    if (target && prefs.confirmDestructive && isEffectivelyDestructive(target)) {
      setConfirming({ message: msg, text, tool: target });
      return;
    }
    void runner.run(msg, text);
  }, [conn, text, tools, prefs.confirmDestructive, runner]);

  if (setupError) return <ProxyErrorBanner error={setupError} />;
  if (!conn || !tools || text === null) return <p className="text-sm text-zinc-500" data-testid="playground-loading">Connecting to {server}…</p>;

  const errors = diagnostics.filter((d) => d.severity === "error").length;
  const { exchange, ask, busy } = runner;

  const editorPane = (
    <section aria-label="Request" className="min-w-0">
      <div className="mb-2 flex flex-wrap items-center gap-2 text-sm">
        <span className="rounded bg-zinc-100 px-2 py-0.5 font-mono text-xs dark:bg-zinc-800" data-testid="connection-era">
          {conn.server.era} · {conn.server.protocolVersion}
        </span>
        <span className="min-w-0 truncate text-zinc-500">{conn.server.serverInfo?.title ?? conn.server.serverInfo?.name ?? server}</span>
        <span className="ml-auto" />
        {busy ? (
          <button type="button" onClick={runner.cancel} className="rounded-md border border-zinc-300 px-3 py-1.5 dark:border-zinc-700" data-testid="cancel">
            Cancel
          </button>
        ) : null}
        <button type="button" onClick={send} disabled={busy} data-testid="send" className="rounded-md bg-accent-600 px-4 py-1.5 font-medium text-white hover:bg-accent-700 disabled:opacity-60" title="Send (Ctrl/Cmd+Enter)">
          {busy ? "Sending…" : "Send"}
        </button>
      </div>
      <JsonEditorLoader value={text} onChange={setEdited} tools={tools} era={conn.server.era} onSend={send} onDiagnostics={setDiagnostics} height="min(60vh, 560px)" />
      {errors > 0 && <p className="mt-1 text-xs text-amber-700 dark:text-amber-400">This request has {errors} problem{errors === 1 ? "" : "s"}; you can still send it to see how the server reacts.</p>}
      {parseError && <p role="alert" className="mt-2 text-sm text-red-700 dark:text-red-400">{parseError}</p>}
      <ProblemsPanel diagnostics={diagnostics} />
      <label className="mt-3 flex items-center gap-2 text-xs text-zinc-600 dark:text-zinc-400">
        <input type="checkbox" checked={prefs.confirmDestructive} onChange={(e) => updatePrefs({ confirmDestructive: e.target.checked })} data-testid="pref-confirm-destructive" />
        Ask before calling a destructive tool
      </label>
    </section>
  );

  const resultPane = (
    <section aria-label="Response" className="min-w-0" data-testid="response-panel">
      {!exchange && <p className="text-sm text-zinc-500">Press Send (or Ctrl/Cmd+Enter) to see the response here.</p>}
      {exchange && <ExchangeView key={exchange.id} exchange={exchange} tools={tools} />}
    </section>
  );

  return (
    <>
      <SplitPane split={prefs.split} onSplit={(split) => updatePrefs({ split })} first={editorPane} second={resultPane} />
      {ask && (
        <MrtrDialog
          key={`${exchange?.id}:${ask.round}`}
          requests={ask.requests}
          serverLabel={serverLabel}
          round={ask.round}
          maxRounds={MAX_MRTR_ROUNDS}
          repeated={ask.repeated}
          onDone={(answers) => runner.answer(answers)}
          onAbandon={() => runner.answer(null)}
        />
      )}
      {confirming && (
        <ConfirmDestructiveDialog
          toolName={confirming.tool.name}
          summary={hintSummary(confirming.tool)}
          onCancel={() => setConfirming(null)}
          onConfirm={(dontAsk) => {
            if (dontAsk) updatePrefs({ confirmDestructive: false });
            const { message, text: sentText } = confirming;
            setConfirming(null);
            void runner.run(message, sentText);
          }}
        />
      )}
    </>
  );
}
