"use client";

import { useRef, useState } from "react";
import type { ConnectionDescriptor, ProxyErrorBody, RpcResponse, Tool } from "@/lib/mcp/contract";
import { api, ApiError } from "@/lib/client/api-client";
import { checkArgs, pendingProblems, toolCallMessage } from "@/lib/docs/try-it";
import { loadPrefs, savePrefs } from "@/lib/playground/stores/prefs-store";
import { ProxyErrorBanner } from "@/components/ui/ProxyErrorBanner";
import { SchemaForm } from "@/components/forms/SchemaForm";
import { ConfirmDestructiveDialog } from "@/components/playground/ConfirmDestructiveDialog";
import { RenderedResult } from "@/components/playground/results/RenderedResult";
import { AppPanel } from "@/components/playground/apps/AppPanel";
import { toolApp } from "@/lib/docs/apps/tool-app";

/** Props for {@link TryItPanel} (and the TryIt slot that loads it). */
export interface TryItProps {
  /** The server the page documents (a URL or builtin id), connected without credentials like the page itself. */
  server: string;
  tool: Tool;
  /** Arguments to start from (the page's example call). */
  example: Record<string, unknown>;
  /** The tool may delete or overwrite data (by its effective hints): Send asks first. */
  destructive: boolean;
  /** A one-line summary of its hints, for the confirmation. */
  hintSummary: string;
  /** The playground, prefilled with this tool, for what Try it does not do (headers, history, the wire). */
  playgroundHref: string;
}

type Outcome =
  | { kind: "response"; rpc: RpcResponse; message: Record<string, unknown>; connection: ConnectionDescriptor }
  | { kind: "error"; error: ProxyErrorBody["error"] };

function toProxyError(err: unknown): ProxyErrorBody["error"] {
  return err instanceof ApiError ? err.body : { kind: "internal", message: (err as Error).message };
}

/** Try it sends no credentials, like the page. */
const NO_HEADERS = {};

const button =
  "rounded-md bg-accent-600 px-4 py-1.5 text-sm font-medium text-white hover:bg-accent-700 disabled:cursor-not-allowed disabled:opacity-60";

/**
 * Try a tool without leaving its docs: the arguments, Send, and the rendered result. The call goes through the
 * same API as the playground (connect without credentials, not interactive: no one answers server requests here),
 * checked against the inputSchema first; a destructive tool asks before it is called.
 */
export function TryItPanel({ server, tool, example, destructive, hintSummary, playgroundHref }: TryItProps) {
  const [args, setArgs] = useState<Record<string, unknown>>(example);
  /** Fields holding text that is not a value yet ("1.", broken JSON), by pointer: Send waits for them. */
  const [pending, setPending] = useState<ReadonlyMap<string, string>>(new Map());
  const [problems, setProblems] = useState<string[]>([]);
  const [tried, setTried] = useState(false);
  const [confirming, setConfirming] = useState<Record<string, unknown> | null>(null);
  const [sending, setSending] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const connection = useRef<ConnectionDescriptor | null>(null);
  const nextId = useRef(1);

  const connect = async (fresh: boolean) => {
    if (!connection.current || fresh) connection.current = (await api.connect({ url: server, era: "auto", interactive: false })).connection;
    return connection.current;
  };

  const call = async (args: Record<string, unknown>) => {
    setSending(true);
    setOutcome(null);
    const message = toolCallMessage(tool.name, args, nextId.current++);
    try {
      let rpc: RpcResponse;
      try {
        rpc = await api.rpc(await connect(false), message, {});
      } catch (err) {
        // A remembered descriptor that went stale (an expired legacy session): connect afresh once.
        if (!(err instanceof ApiError) || err.body.kind !== "upstream-protocol" || !connection.current) throw err;
        rpc = await api.rpc(await connect(true), message, {});
      }
      if (rpc.connection) connection.current = rpc.connection;
      setOutcome({ kind: "response", rpc, message, connection: connection.current! });
    } catch (err) {
      setOutcome({ kind: "error", error: toProxyError(err) });
    } finally {
      setSending(false);
    }
  };

  const send = () => {
    setTried(true);
    const waiting = pendingProblems(pending);
    const checked = waiting.length > 0 ? { ok: false as const, problems: waiting } : checkArgs(tool.inputSchema, args);
    if (!checked.ok) {
      setProblems(checked.problems);
      return;
    }
    setProblems([]);
    if (destructive && loadPrefs().confirmDestructive) setConfirming(checked.args);
    else void call(checked.args);
  };

  const response = outcome?.kind === "response" ? outcome.rpc.response : null;
  const appUri = toolApp(tool)?.resourceUri;
  return (
    <div data-testid="try-it" className="space-y-3">
      <div aria-describedby={problems.length ? "tryit-problems" : undefined} data-testid="try-it-form">
        <SchemaForm
          schema={tool.inputSchema}
          value={args}
          onChange={(next) => {
            setArgs(next);
            setProblems([]);
          }}
          idPrefix="tryit"
          errorsShown="after-edit"
          revealErrors={tried}
          onPendingChange={setPending}
          disabled={sending}
        />
      </div>
      {problems.length > 0 && (
        <div id="tryit-problems" role="alert" data-testid="try-it-problems" className="text-sm text-red-800 dark:text-red-300">
          <p className="font-medium">Not sent: fix the arguments first.</p>
          <ul className="mt-1 list-disc pl-5">
            {problems.map((p, i) => (
              <li key={i}>{p}</li>
            ))}
          </ul>
        </div>
      )}
      <div className="flex flex-wrap items-center gap-3">
        <button type="button" onClick={send} disabled={sending} className={button} data-testid="try-it-send">
          {sending ? "Sending…" : "Send"}
        </button>
        <span className="text-xs text-zinc-600 dark:text-zinc-400">
          Sent without credentials, like this page. Headers, history and the wire view are in the{" "}
          <a href={playgroundHref} className="underline">
            playground
          </a>
          .
        </span>
      </div>
      {appUri && !outcome && (
        // The app's poster: where its view will run, drawn by the page itself. Nothing of the app is fetched and no
        // message reaches the server until the person runs it.
        <div
          className="flex min-h-40 flex-col items-center justify-center gap-2 rounded-md border-2 border-dashed border-zinc-300 p-4 text-center dark:border-zinc-700"
          data-testid="app-poster"
        >
          <p className="text-sm font-medium">This tool has an MCP App</p>
          <code className="max-w-full break-all text-xs text-zinc-600 dark:text-zinc-400">{appUri}</code>
          <p className="max-w-md text-xs text-zinc-600 dark:text-zinc-400">
            Its view runs here, in a sandbox, with the arguments above and the server&apos;s result: nothing of it is loaded until you run
            it.
          </p>
          <button type="button" onClick={send} disabled={sending} className={button} data-testid="app-poster-run">
            {sending ? "Running…" : "Run the app"}
          </button>
        </div>
      )}
      <div aria-live="polite" data-testid="try-it-result">
        {outcome?.kind === "error" && <ProxyErrorBanner error={outcome.error} />}
        {outcome?.kind === "response" &&
          (response ? (
            <>
              {/* The tool's MCP App, if it has one: its code is fetched only now, after the person sent the call. */}
              <AppPanel connection={outcome.connection} headers={NO_HEADERS} tools={[tool]} message={outcome.message} response={response} />
              <RenderedResult response={response} method="tools/call" tool={tool} outputValidation={outcome.rpc.outputValidation} />
            </>
          ) : (
            <p className="text-sm text-zinc-600 dark:text-zinc-400">The server sent no response.</p>
          ))}
      </div>
      {confirming && (
        <ConfirmDestructiveDialog
          toolName={tool.name}
          summary={hintSummary}
          onCancel={() => setConfirming(null)}
          onConfirm={(dontAskAgain) => {
            if (dontAskAgain) savePrefs({ confirmDestructive: false });
            const args = confirming;
            setConfirming(null);
            void call(args);
          }}
        />
      )}
    </div>
  );
}
