"use client";

import { useCallback, useEffect, useMemo, useReducer, useRef, useState, useSyncExternalStore } from "react";
import { DeprecationNotes } from "@/components/ui/DeprecationNotes";
import { serverDeprecations } from "@/lib/mcp/deprecations";
import { useRouter } from "next/navigation";
import type { Era, Tool } from "@/lib/mcp/contract";
import { nextRequestId, requestTemplate, templatesFor, withRequestId } from "@/lib/editor/templates";
import { hintSummary } from "@/lib/docs/annotations";
import type { CodeInput } from "@/lib/codegen/copy-as-code";
import type { HistoryEntry } from "@/lib/playground/stores/history-store";
import { initialRequestText } from "@/lib/playground/initial-request";
import { followToolList, listStaleReason } from "@/lib/playground/list-freshness";
import { MAX_MRTR_ROUNDS } from "@/lib/playground/server-requests/mrtr";
import {
  calledTool,
  errorCount,
  initialState,
  isPreviousResult,
  parseMessage,
  planSend,
  reduce,
  replayTarget,
  selectText,
} from "@/lib/playground/playground-state";
import { loadPrefs, savePrefs, type PlaygroundPrefs } from "@/lib/playground/stores/prefs-store";
import { overrideMap } from "@/lib/playground/send-preview";
import { handedOffRequest, handOffRequest } from "@/lib/playground/stores/session-store";
import { encodeShare } from "@/lib/share/share-codec";
import type { PaletteCommand } from "./CommandPalette";
import { roundSummary } from "./results/round-summary";
import { JsonEditorLoader } from "./editor/JsonEditorLoader";
import type { ExplorerPrompt } from "@/lib/playground/explorer";
import { LogLevelPicker } from "./results/LogLevelPicker";
import { ProblemsPanel, SendStatusLine } from "./editor/ProblemsPanel";
import { ProxyErrorBanner } from "@/components/ui/ProxyErrorBanner";
import { SplitPane } from "./SplitPane";
import { useConnection } from "./useConnection";
import { OAuthPrompt, OAuthStatus } from "./oauth/OAuthControls";
import { useOAuth } from "./oauth/useOAuth";
import { withOAuthHeader } from "@/lib/playground/oauth/oauth-session";
import { useExchangeRunner, type Exchange } from "./useExchangeRunner";
import { useHistory } from "./library/useHistory";
import { useSaved } from "./library/useSaved";
import { NotificationsPane } from "./results/NotificationsPane";
import { TasksPanel } from "./tasks/TasksPanel";
import { isObject } from "@/lib/json/guards";
import { hasSharedCollection, subscribeSharedCollection } from "./collections/shared-collection";
import { declaresTasks } from "@/lib/mcp/tasks/task-support";
import { recordTabTask } from "@/lib/playground/tasks/tab-tasks";
import { ToolExplorerPending } from "./explorer/ToolExplorerPending";
import {
  ArgumentsForm,
  CommandPalette,
  CollectionPanel,
  ConfirmDestructiveDialog,
  CopyAsCodeDialog,
  ExchangeView,
  HelpDialog,
  HistoryPanel,
  MrtrDialog,
  preloadPanels,
  SaveDialog,
  SavedPanel,
  SendPreview,
  ServerRequestDialog,
  ShareDialog,
  SharedResponseView,
  ToolExplorer,
} from "./lazy-panels";
import { useNotificationFeed, useOpenedFromShareLink } from "./useNotificationFeed";
import { whenIdle } from "./when-idle";

/** What a share link puts in the playground. Nothing is sent until the user presses Send. */
export interface PlaygroundInitial {
  era?: Era;
  request: string;
  /** A response carried by the link, shown as such (never re-sent). */
  response?: unknown;
  /** Where `response` came from, said above it (default: the share link). Tabs: a tab's kept last result. */
  responseNote?: string;
}

interface Props {
  /** The server to talk to: an http(s) URL or `builtin:demo`. */
  server: string;
  /** The tool to prefill a tools/call for. */
  tool?: string;
  initial?: PlaygroundInitial;
  /** Tabs: told the editor text and the last result whenever they change, so the tab keeps them (PlaygroundShell). */
  onTabState?: (text: string, lastResponse: unknown) => void;
}

function isEditable(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName) || target.closest(".monaco-editor") !== null;
}

function finalResponse(ex: Exchange): unknown {
  const last = ex.rounds.at(-1);
  return last?.outcome.kind === "response" ? last.outcome.rpc.response : last ? { proxyError: last.outcome.error } : null;
}

const toolbarButton =
  "whitespace-nowrap rounded-md border border-zinc-300 px-2.5 py-1 text-sm hover:bg-zinc-50 disabled:opacity-60 disabled:hover:bg-transparent dark:border-zinc-700 dark:hover:bg-zinc-900";

/** Palette commands that need the server's era and address (save, share, code): not offered while connecting. */
const NEEDS_SERVER = new Set(["save", "share", "copy:curl", "copy:fetch", "copy:ts"]);

/** Longest wait for a quiet moment before the playground's other parts are fetched anyway. */
const PRELOAD_IDLE_TIMEOUT_MS = 500;

/** The editor's tools while the list is not in yet (connecting): none, and Monaco waits (JsonEditorLoader). */
const NO_TOOLS: Tool[] = [];

/** The playground: connect, edit a JSON-RPC message with live diagnostics, send it, answer MRTR input requests and the requests a server sends mid-call, keep history, share. */
export function Playground({ server, tool, initial, onTabState }: Props) {
  const oauth = useOAuth(server);
  const [state, dispatch] = useReducer(reduce, null, () =>
    initialState({
      edited: initial?.request ?? (typeof window === "undefined" ? null : (handedOffRequest(server) ?? null)),
      prefs: loadPrefs(),
    }),
  );
  const { prefs, overlay, confirming, showHistory, showSaved, showTests } = state;
  // The MCP Apps switch is part of the connection (what the server is told at initialize or in each _meta).
  const {
    conn,
    tools,
    listInfo,
    error: setupError,
    headers,
    userHeaders,
    replaceDescriptor,
    refreshTools,
  } = useConnection(server, initial?.era, oauth, prefs.apps);
  const history = useHistory();
  // The prompts the explorer listed: the arguments form fills a prompts/get from them.
  const [prompts, setPrompts] = useState<ExplorerPrompt[]>();
  const saved = useSaved();
  const router = useRouter();
  // Persisted first: savePrefs merges with what other parts of the page (roots) stored, and returns the whole.
  const updatePrefs = (patch: Partial<PlaygroundPrefs>) => dispatch({ type: "prefs", prefs: savePrefs(patch) });
  const setEdited = useCallback((text: string) => dispatch({ type: "edit", text }), []);
  const openOverlay = (o: NonNullable<typeof overlay>) => dispatch({ type: "overlay-open", overlay: o });
  const closeOverlay = () => dispatch({ type: "overlay-close" });
  const setToolsNotice = (text: string) => dispatch({ type: "tools-notice", text });
  const era = conn?.server.era;

  const onFinished = useCallback(
    (ex: Exchange) => {
      const first = ex.rounds[0];
      if (!first || !era) return;
      const method = typeof first.message.method === "string" ? first.message.method : "(no method)";
      const last = ex.rounds.at(-1)!;
      const name = (first.message.params as { name?: unknown } | undefined)?.name;
      const entry: HistoryEntry = {
        id: ex.id,
        at: ex.startedAt,
        server,
        era,
        method,
        ...(method === "tools/call" && typeof name === "string" ? { tool: name } : {}),
        request: ex.text,
        response: finalResponse(ex),
        rounds: ex.rounds.length,
        // A call cancelled in flight ends with the proxy's "cancelled" error: the verdict is just "cancelled".
        outcome:
          ex.state === "done"
            ? roundSummary(last)
            : ex.state === "cancelled" && last.outcome.kind === "proxy-error"
              ? "cancelled"
              : `${ex.state} after ${roundSummary(last)}`,
        durationMs: ex.rounds.reduce((sum, r) => sum + (r.outcome.kind === "response" ? r.outcome.rpc.durationMs : (r.elapsedMs ?? 0)), 0),
      };
      void history.add(entry);
      // Refused for want of a token, then sent again with one: the debugger's last step.
      if (
        ex.rounds.length > 1 &&
        ex.rounds.slice(0, -1).some((r) => r.outcome.kind === "proxy-error" && r.outcome.error.kind === "upstream-auth")
      )
        oauth.noteRetry({
          what: method,
          ok: last.outcome.kind === "response",
          summary: roundSummary(last),
          ...(last.outcome.kind === "response" ? { exchanges: last.outcome.rpc.exchanges } : {}),
        });
      // An unknown-tool answer: the list changed unannounced, fetch it again so templates, completion and checks follow.
      // A list_changed heard during the exchange reached the notifications feed as it came (onToolsChanged below),
      // which follows the same rule (lib/playground/list-freshness.ts): one fetch per change.
      const stale = listStaleReason(ex.rounds.flatMap((r) => (r.outcome.kind === "response" ? [{ method, rpc: r.outcome.rpc }] : [])));
      if (stale === "unknown-tool") void followToolList(stale, refreshTools, (text) => dispatch({ type: "tools-notice", text }));
    },
    [server, era, history, refreshTools, oauth],
  );
  const isStdio = conn?.connection.url.startsWith("stdio:") ?? false;
  const headerOverrides = isStdio ? undefined : overrideMap(state.overrideDrafts).overrides;
  // Notifications outside a call's result (the pane); a tool list change fetches the list again.
  const fromShareLink = useOpenedFromShareLink();
  const notifications = useNotificationFeed({
    conn,
    headers,
    open: prefs.notificationsOpen,
    deferred: fromShareLink,
    onToolsChanged: () => void followToolList("list-changed", refreshTools, (text) => dispatch({ type: "tools-notice", text })),
  });
  const runner = useExchangeRunner({
    onNotification: notifications.add,
    connection: conn?.connection,
    headers,
    headerOverrides,
    logLevel: prefs.logLevel,
    tasks: prefs.tasks,
    onConnection: replaceDescriptor,
    onFinished,
    // A token about to expire is refreshed before sending; a refusal waits for a refresh or the user's sign-in.
    prepareHeaders: async () => withOAuthHeader(userHeaders, await oauth.ensureFresh()),
    onAuthRefusal: async (error, attempts, sent) => {
      const r = await oauth.resolveRefusal(error, attempts, sent);
      return r && { headers: withOAuthHeader(userHeaders, r.state), attempts: r.attempts };
    },
  });
  // Cancel also gives up a sign-in the request waits for.
  const cancel = () => {
    if (oauth.prompt) oauth.dismiss();
    runner.cancel();
  };
  // The editor is up while the server is being connected: its default text (tools/list) needs no tool list. A tools/call
  // of a chosen tool waits for the list (its example arguments come from the tool's schema).
  const text = selectText(state, tools ? initialRequestText(tools, tool) : tool ? null : initialRequestText(NO_TOOLS));
  // Connected, with the tool list: everything that speaks of the server's tools or protocol needs both.
  const live = conn && tools ? { conn, tools } : null;
  // Send (button or Ctrl/Cmd+Enter) while still connecting: the request goes as soon as the connection is up.
  const [sendQueued, setSendQueued] = useState(false);
  // The one parse of the editor text, shared by Send and Copy as code.
  const parsed = useMemo(() => (text === null ? null : parseMessage(text)), [text]);
  const serverLabel = conn
    ? `${conn.server.serverInfo?.title ?? conn.server.serverInfo?.name ?? "server"} (${conn.server.displayUrl})`
    : server;

  const send = useCallback(() => {
    if (text === null || parsed === null) return;
    setSendQueued(!conn || !tools);
    if (!conn || !tools) return;
    const plan = planSend(text, parsed, tools, prefs.confirmDestructive);
    dispatch({ type: "send", plan, at: Date.now() });
    if (plan.kind === "run") void runner.run(plan.message, plan.text);
  }, [conn, text, parsed, tools, prefs.confirmDestructive, runner]);
  // The parts not on screen yet (lazy-panels.tsx) are fetched at the first quiet moment, while the server is connected.
  useEffect(() => whenIdle(preloadPanels, PRELOAD_IDLE_TIMEOUT_MS), []);

  // The queued send goes once connected (send clears the queue as it goes), from a task of its own: the render that
  // brought the connection commits first.
  useEffect(() => {
    if (!sendQueued || !conn || !tools) return;
    const timer = setTimeout(send, 0);
    return () => clearTimeout(timer);
  }, [sendQueued, conn, tools, send]);

  // The latest send, for the page-wide Ctrl/Cmd+Enter below (its listener is added once).
  const sendRef = useRef(send);
  useEffect(() => {
    sendRef.current = send;
  }, [send]);

  // Ctrl/Cmd+K anywhere opens the palette; Ctrl/Cmd+Enter anywhere sends (the editor binds it itself; issue 26: it
  // sent only from inside the editor, not from the arguments form); `?` outside text fields opens the help.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (
        (e.ctrlKey || e.metaKey) &&
        !e.altKey &&
        !e.shiftKey &&
        e.key === "Enter" &&
        !(e.target instanceof Element && e.target.closest(".monaco-editor")) &&
        !document.querySelector("dialog[open]")
      ) {
        e.preventDefault();
        sendRef.current();
      } else if ((e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === "k") {
        e.preventDefault();
        dispatch({ type: "overlay-open", overlay: { kind: "palette" } });
      } else if ((e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === "s") {
        e.preventDefault(); // not the browser's "save page"
        if (!document.querySelector("dialog[open]")) dispatch({ type: "overlay-open", overlay: { kind: "save" } });
      } else if (
        e.key === "?" &&
        !e.ctrlKey &&
        !e.metaKey &&
        !e.altKey &&
        !isEditable(e.target) &&
        !document.querySelector("dialog[open]")
      ) {
        e.preventDefault();
        dispatch({ type: "overlay-open", overlay: { kind: "help" } });
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  // A request the playground writes into the editor (template, next page, explorer) continues the ids: one more than
  // the editor's and the last sent request's (the last round's, MRTR retries counting up).
  const lastSent = runner.exchange?.rounds.at(-1)?.message;
  const lastSentText = useMemo(() => (lastSent ? JSON.stringify(lastSent) : runner.exchange?.text), [lastSent, runner.exchange?.text]);
  const insertRequest = useCallback(
    (requestText: string) => setEdited(withRequestId(requestText, nextRequestId(text, lastSentText))),
    [setEdited, text, lastSentText],
  );

  const templateCommands = useMemo<PaletteCommand[]>(() => {
    if (!era || !tools) return [];
    return templatesFor(era).flatMap((t): PaletteCommand[] =>
      t.kind === "tools/call"
        ? tools.map((tl) => ({
            id: `tpl:call:${tl.name}`,
            label: `Call ${tl.name}${tl.title ? ` — ${tl.title}` : ""}`,
            group: "Template · tools/call",
            run: () => insertRequest(requestTemplate("tools/call", { tool: tl })),
          }))
        : [
            {
              id: `tpl:${t.kind}`,
              label: `${t.label} (${t.kind === "custom" ? "custom method" : t.kind})`,
              group: "Template",
              run: () => insertRequest(requestTemplate(t.kind)),
            },
          ],
    );
  }, [era, tools, insertRequest]);

  const lastResponse = runner.exchange ? finalResponse(runner.exchange) : initial?.response;
  // The editor's last answered Send, for the Tests panel's "Expect this".
  const lastExchange = useMemo(() => {
    const ex = runner.exchange;
    const first = ex?.rounds[0];
    const response = ex && !["running", "asking", "cancelling"].includes(ex.state) ? finalResponse(ex) : undefined;
    return first && isObject(response) && !("proxyError" in response) ? { request: first.message, response } : undefined;
  }, [runner.exchange]);
  // A collection opened from a link for this server opens the Tests panel, which takes it.
  const sharedWaiting = useSyncExternalStore(
    subscribeSharedCollection,
    () => hasSharedCollection(server),
    () => false,
  );
  useEffect(() => {
    if (sharedWaiting) dispatch({ type: "tests-open" });
  }, [sharedWaiting]);
  // Tabs: report on a change of text or exchange only (finalResponse may build a new object on every render). While
  // connecting only what was typed: the first report counts as a use of the server (recent servers), the untouched
  // default text is not one.
  const reportable = text !== null && (conn !== null || state.edited !== null);
  useEffect(() => {
    if (reportable) onTabState?.(text, runner.exchange ? finalResponse(runner.exchange) : initial?.response);
  }, [reportable, text, runner.exchange, initial?.response, onTabState]);
  const allCommands: PaletteCommand[] = [
    { id: "send", label: "Send the request", group: "Action", shortcut: "Ctrl/Cmd+Enter", run: send },
    ...(runner.busy ? [{ id: "cancel", label: "Cancel the request in flight", group: "Action", run: cancel }] : []),
    {
      id: "history",
      label: showHistory ? "Hide history" : "Show history",
      group: "Action",
      run: () => dispatch({ type: "history-toggle" }),
    },
    {
      id: "refresh-tools",
      label: "Fetch the tool list again (past the cache)",
      group: "Action",
      run: () =>
        void refreshTools().then((list) =>
          setToolsNotice(list ? `Tool list fetched again: ${list.length} tools.` : "Fetching the tool list again failed."),
        ),
    },
    { id: "save", label: "Save request…", group: "Action", shortcut: "Ctrl/Cmd+S", run: () => openOverlay({ kind: "save" }) },
    {
      id: "saved",
      label: showSaved ? "Hide saved requests" : "Show saved requests",
      group: "Action",
      run: () => dispatch({ type: "saved-toggle" }),
    },
    {
      id: "tests",
      label: showTests ? "Hide tests (collection)" : "Show tests (collection)",
      group: "Action",
      run: () => dispatch({ type: "tests-toggle" }),
    },
    { id: "share", label: "Share this experiment (link)", group: "Action", run: () => openOverlay({ kind: "share" }) },
    { id: "copy:curl", label: "Copy as curl", group: "Copy as code", run: () => openOverlay({ kind: "copy", language: "curl" }) },
    { id: "copy:fetch", label: "Copy as fetch", group: "Copy as code", run: () => openOverlay({ kind: "copy", language: "fetch" }) },
    {
      id: "copy:ts",
      label: "Copy as TypeScript (@modelcontextprotocol/client)",
      group: "Copy as code",
      run: () => openOverlay({ kind: "copy", language: "typescript" }),
    },
    {
      id: "confirm",
      label: prefs.confirmDestructive ? "Stop asking before destructive calls" : "Ask before destructive calls",
      group: "Setting",
      run: () => updatePrefs({ confirmDestructive: !prefs.confirmDestructive }),
    },
    { id: "help", label: "Keyboard shortcuts", group: "Help", shortcut: "?", run: () => openOverlay({ kind: "help" }) },
    ...templateCommands,
  ];
  const commands = live ? allCommands : allCommands.filter((c) => !NEEDS_SERVER.has(c.id));

  // Each task this tab follows, as last seen, for the Tasks panel (and after a reload).
  const followed = runner.exchange?.task;
  const followedTool = (runner.exchange?.rounds[0]?.message.params as { name?: unknown } | undefined)?.name;
  useEffect(() => {
    if (followed) recordTabTask(server, followed, typeof followedTool === "string" ? followedTool : undefined);
  }, [followed, followedTool, server]);

  if (setupError)
    return (
      <div className="space-y-3">
        <ProxyErrorBanner error={setupError} />
        <OAuthStatus oauth={oauth} />
      </div>
    );
  if (oauth.prompt && !live) return <OAuthPrompt oauth={oauth} dismissible />;
  if (text === null)
    return (
      <p className="text-sm text-zinc-500" data-testid="playground-loading">
        Connecting to {server}…
      </p>
    );

  const errors = errorCount(state);
  const { parseError, toolsNotice } = state;
  const { exchange, ask, busy, serverAsks } = runner;

  // "Next page" on a list result: the request for it goes in the editor, and is sent at once for "Send next page".
  const nextPage = (pageText: string, sendNow: boolean) => {
    const nextText = withRequestId(pageText, nextRequestId(text, lastSentText));
    dispatch({ type: "next-page", text: nextText });
    if (!sendNow) return;
    const next = parseMessage(nextText);
    if (next.ok) void runner.run(next.value, nextText);
  };

  const replay = (entry: Pick<HistoryEntry, "server" | "request"> & { era?: Era }) => {
    const target = replayTarget(entry, server);
    if (target.kind === "here") {
      dispatch({ type: "replay", text: entry.request });
      window.scrollTo({ top: 0, behavior: "smooth" });
    } else if (target.kind === "hand-off") {
      // A share link cannot name a stdio server: the request waits in this tab for that server's playground.
      handOffRequest(entry.server, entry.request);
      router.push(`/playground?server=${encodeURIComponent(entry.server)}`);
    } else {
      // Another server: open it with the request, the same way a share link does (nothing is sent).
      router.push(`/playground#${encodeShare({ server: entry.server, era: entry.era, request: entry.request })}`);
    }
  };

  const codeInput = ({ conn, tools }: NonNullable<typeof live>): CodeInput | { error: string } => {
    if (!parsed?.ok) return { error: parsed?.error ?? "" };
    const msg = parsed.value;
    const called = calledTool(msg, tools);
    return {
      endpoint: conn.server.displayUrl,
      era: conn.server.era,
      protocolVersion: conn.server.protocolVersion,
      ...(conn.connection.sessionId ? { sessionId: conn.connection.sessionId } : {}),
      ...(conn.connection.transport === "sse" ? { transport: "sse" as const } : {}),
      message: msg,
      ...(called ? { tool: called } : {}),
      userHeaderNames: Object.keys(headers),
      tasks: prefs.tasks,
    };
  };

  const editorPane = (
    <section aria-label="Request" className="min-w-0">
      <div className="mb-2 flex flex-wrap items-center gap-2 text-sm">
        {live ? (
          <>
            <span
              className="rounded bg-zinc-100 px-2 py-0.5 font-mono text-xs dark:bg-zinc-800"
              data-testid="connection-era"
              title={
                live.conn.connection.transport === "sse"
                  ? "Deprecated HTTP+SSE transport: the proxy keeps no connection, so every call opens a fresh session (event stream, initialize, the call, close)."
                  : undefined
              }
            >
              {live.conn.server.era} · {live.conn.server.protocolVersion}
              {live.conn.connection.transport === "sse" ? " · HTTP+SSE" : ""}
            </span>
            <span className="min-w-0 truncate text-zinc-500">
              {live.conn.server.serverInfo?.title ?? live.conn.server.serverInfo?.name ?? server}
            </span>
          </>
        ) : (
          <span role="status" className="min-w-0 truncate text-zinc-500" data-testid="playground-connecting">
            Connecting to {server}…
          </span>
        )}
        <OAuthStatus oauth={oauth} />
        <span className="ml-auto" />
        <LogLevelPicker
          era={live?.conn.server.era ?? initial?.era ?? "modern"}
          pending={!live}
          value={prefs.logLevel}
          onChange={(logLevel) => updatePrefs({ logLevel })}
        />
        {busy ? (
          <button
            type="button"
            onClick={cancel}
            disabled={exchange?.state === "cancelling"}
            className="rounded-md border border-zinc-300 px-3 py-1.5 disabled:opacity-60 dark:border-zinc-700"
            data-testid="cancel"
          >
            {exchange?.state === "cancelling" ? "Cancelling…" : "Cancel"}
          </button>
        ) : null}
        <button
          type="button"
          onClick={send}
          disabled={busy || sendQueued}
          data-testid="send"
          className="rounded-md bg-accent-600 px-4 py-1.5 font-medium text-white hover:bg-accent-700 disabled:opacity-60"
          title={live ? "Send (Ctrl/Cmd+Enter)" : "Send (Ctrl/Cmd+Enter): goes as soon as the server is connected"}
        >
          {busy || sendQueued ? "Sending…" : "Send"}
        </button>
      </div>
      {live && (
        <DeprecationNotes
          items={serverDeprecations({ capabilities: live.conn.server.capabilities, transport: live.conn.connection.transport })}
          testId="playground-deprecations"
          className="mb-2"
        />
      )}
      {live && (
        <ArgumentsForm
          text={text}
          tools={live.tools}
          prompts={prompts}
          onText={setEdited}
          open={prefs.formOpen}
          onOpen={(formOpen) => updatePrefs({ formOpen })}
        />
      )}
      {/* Shorter when stacked (narrow screens), so the result stays in reach. */}
      <div className="[--editor-h:clamp(240px,45vh,420px)] min-[900px]:[--editor-h:min(60vh,560px)]">
        <JsonEditorLoader
          value={text}
          onChange={setEdited}
          tools={live?.tools ?? NO_TOOLS}
          era={live?.conn.server.era ?? initial?.era ?? "modern"}
          contextPending={!live}
          onSend={send}
          onCommandPalette={() => openOverlay({ kind: "palette" })}
          onDiagnostics={(diagnostics) => dispatch({ type: "diagnostics", diagnostics })}
          height="var(--editor-h)"
        />
      </div>
      <SendStatusLine blocked={parsed?.ok === false ? parsed.error : null} errors={errors} refused={parseError !== null} />
      {sendQueued && (
        <p role="status" className="mt-2 text-sm text-zinc-600 dark:text-zinc-400" data-testid="send-queued">
          Still connecting to {server}: the request goes as soon as the connection is up.
        </p>
      )}
      {toolsNotice && (
        <p role="status" className="mt-2 text-sm text-zinc-600 dark:text-zinc-400" data-testid="tools-notice">
          {toolsNotice}
        </p>
      )}
      <ProblemsPanel diagnostics={state.diagnostics} text={text} />
      {live && (
        <SendPreview
          text={text}
          era={live.conn.server.era}
          transport={isStdio ? "stdio" : live.conn.connection.transport === "sse" ? "sse" : "http"}
          logLevel={prefs.logLevel}
          endpoint={live.conn.server.displayUrl}
          protocolVersion={live.conn.server.protocolVersion}
          sessionId={live.conn.connection.sessionId}
          apps={live.conn.connection.apps !== false}
          tools={live.tools}
          userHeaders={headers}
          overrides={state.overrideDrafts}
          onOverrides={(drafts) => dispatch({ type: "overrides", drafts })}
          onText={setEdited}
          open={prefs.previewOpen}
          onOpen={(previewOpen) => updatePrefs({ previewOpen })}
        />
      )}
      <label className="mt-3 flex items-center gap-2 text-xs text-zinc-600 dark:text-zinc-400">
        <input
          type="checkbox"
          checked={prefs.confirmDestructive}
          onChange={(e) => updatePrefs({ confirmDestructive: e.target.checked })}
          data-testid="pref-confirm-destructive"
        />
        Ask before calling a destructive tool
      </label>
      <label className="mt-1 flex items-center gap-2 text-xs text-zinc-600 dark:text-zinc-400">
        <input type="checkbox" checked={prefs.apps} onChange={(e) => updatePrefs({ apps: e.target.checked })} data-testid="pref-apps" />
        Declare MCP Apps support (off: connect again as a host without apps, to see the text-only answers)
      </label>
      <label className="mt-1 flex items-center gap-2 text-xs text-zinc-600 dark:text-zinc-400">
        <input type="checkbox" checked={prefs.tasks} onChange={(e) => updatePrefs({ tasks: e.target.checked })} data-testid="pref-tasks" />
        Declare tasks support (2026-07-28: a server may answer a call with a task, followed here until it ends)
      </label>
    </section>
  );

  const resultPane = (
    <section aria-label="Response" className="min-w-0" data-testid="response-panel">
      {!exchange && initial?.response !== undefined && (
        <SharedResponseView response={initial.response} tools={tools ?? NO_TOOLS} request={text} note={initial.responseNote} />
      )}
      {!exchange && initial?.response === undefined && (
        <p className="text-sm text-zinc-500">Press Send (or Ctrl/Cmd+Enter) to see the response here.</p>
      )}
      {exchange && (
        <ExchangeView
          key={exchange.id}
          exchange={exchange}
          tools={tools ?? NO_TOOLS}
          live={runner.live}
          onNextPage={nextPage}
          serverAsking={serverAsks.length > 0}
          previous={isPreviousResult(state, exchange.startedAt)}
          app={live ? { connection: live.conn.connection, headers } : undefined}
        />
      )}
    </section>
  );

  return (
    <div className="space-y-4">
      <nav aria-label="Playground tools" className="flex flex-wrap items-center gap-2" data-testid="playground-toolbar">
        <button
          type="button"
          className={toolbarButton}
          onClick={() => openOverlay({ kind: "templates" })}
          disabled={!live}
          data-testid="templates-button"
          aria-haspopup="dialog"
        >
          Templates ▾
        </button>
        <button
          type="button"
          className={toolbarButton}
          onClick={() => openOverlay({ kind: "palette" })}
          data-testid="palette-button"
          aria-haspopup="dialog"
          title="Command palette (Ctrl/Cmd+K)"
        >
          Commands <kbd className="ml-1 font-mono text-[10px] text-zinc-500">Ctrl K</kbd>
        </button>
        <button
          type="button"
          className={toolbarButton}
          onClick={() => dispatch({ type: "history-toggle" })}
          aria-expanded={showHistory}
          aria-controls="playground-history"
          data-testid="history-button"
        >
          History{history.entries.length ? ` (${history.entries.length})` : ""}
        </button>
        <button
          type="button"
          className={toolbarButton}
          onClick={() => openOverlay({ kind: "save" })}
          disabled={!live}
          data-testid="save-button"
          aria-haspopup="dialog"
          title="Save request (Ctrl/Cmd+S)"
        >
          Save
        </button>
        <button
          type="button"
          className={toolbarButton}
          onClick={() => dispatch({ type: "saved-toggle" })}
          aria-expanded={showSaved}
          aria-controls="playground-saved"
          data-testid="saved-button"
        >
          Saved{saved.entries.length ? ` (${saved.entries.length})` : ""}
        </button>
        <button
          type="button"
          className={toolbarButton}
          onClick={() => dispatch({ type: "tests-toggle" })}
          aria-expanded={showTests}
          aria-controls="playground-tests"
          data-testid="tests-button"
          title="Calls with expectations, run here and by toolscope test in CI"
        >
          Tests
        </button>
        <button
          type="button"
          className={toolbarButton}
          onClick={() => openOverlay({ kind: "share" })}
          disabled={!live}
          data-testid="share-button"
          aria-haspopup="dialog"
        >
          Share
        </button>
        {/* The last button and "?" wrap together, so "?" never sits alone on a line of its own (narrow screens). */}
        <span className="flex flex-1 items-center gap-2">
          <button
            type="button"
            className={toolbarButton}
            onClick={() => openOverlay({ kind: "copy", language: "curl" })}
            disabled={!live}
            data-testid="copy-code-button"
            aria-haspopup="dialog"
          >
            Copy as code
          </button>
          <button
            type="button"
            className={`${toolbarButton} ml-auto`}
            onClick={() => openOverlay({ kind: "help" })}
            aria-label="Keyboard shortcuts"
            data-testid="help-button"
            title="Keyboard shortcuts (?)"
          >
            ?
          </button>
        </span>
      </nav>
      {/* A send refused for want of sign-in waits here (Cancel or "Not now" lets it fail as it was). */}
      <OAuthPrompt oauth={oauth} dismissible />
      {/* The panels open right under the buttons that toggle them (below the editor they were off-screen). */}
      {showHistory && (
        <div id="playground-history">
          <HistoryPanel
            entries={history.entries}
            onReplay={replay}
            onRemove={(id) => void history.remove(id)}
            onClear={() => void history.clear()}
          />
        </div>
      )}
      {showSaved && (
        <div id="playground-saved">
          <SavedPanel saved={saved} server={server} onOpen={replay} notice={state.savedNotice} />
        </div>
      )}
      {showTests && (
        <div id="playground-tests">
          <CollectionPanel
            key={server}
            server={server}
            serverLabel={serverLabel}
            connection={live?.conn.connection}
            headers={headers}
            tools={live?.tools ?? NO_TOOLS}
            editorText={text}
            lastExchange={lastExchange}
            confirmDestructive={prefs.confirmDestructive}
            onStopAskingDestructive={() => updatePrefs({ confirmDestructive: false })}
            onOpenRequest={(requestText) => dispatch({ type: "replay", text: requestText })}
            onConnection={replaceDescriptor}
            sharedWaiting={sharedWaiting}
          />
        </div>
      )}
      <div className="flex flex-col gap-4 min-[900px]:flex-row min-[900px]:items-start">
        {live ? (
          <ToolExplorer
            server={server}
            tools={live.tools}
            listInfo={listInfo}
            connection={live.conn.connection}
            capabilities={live.conn.server.capabilities}
            headers={headers}
            currentText={text}
            onChoose={insertRequest}
            onConnection={replaceDescriptor}
            open={prefs.explorerOpen}
            onOpen={(explorerOpen) => updatePrefs({ explorerOpen })}
            versions={notifications.versions}
            onPrompts={setPrompts}
            deferred={fromShareLink}
            signedIn={oauth.signedIn !== null}
          />
        ) : (
          <ToolExplorerPending open={prefs.explorerOpen} />
        )}
        <div className="min-w-0 flex-1">
          <SplitPane
            split={prefs.split}
            onSplit={(split) => updatePrefs({ split })}
            first={editorPane}
            second={
              <>
                {/* Above the result, where the server's output is looked for; collapsed, it is one line with a count. */}
                <NotificationsPane
                  feed={notifications.feed}
                  listen={notifications.listen}
                  open={prefs.notificationsOpen}
                  onOpen={(notificationsOpen) => updatePrefs({ notificationsOpen })}
                  onSeen={notifications.seen}
                  onClear={notifications.clear}
                  onListen={notifications.start}
                />
                <TasksPanel
                  server={server}
                  connection={live?.conn.connection}
                  headers={headers}
                  serverDeclaresTasks={declaresTasks(live?.conn.server.capabilities)}
                />
                {resultPane}
              </>
            }
          />
        </div>
      </div>
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
          forTask={ask.forTask === true}
        />
      )}
      {serverAsks.length > 0 && (
        <ServerRequestDialog
          key={exchange?.id}
          asks={serverAsks}
          serverLabel={serverLabel}
          onAnswer={runner.answerServerRequest}
          onCancelCall={runner.cancel}
        />
      )}
      {confirming && (
        <ConfirmDestructiveDialog
          toolName={confirming.tool.name}
          summary={hintSummary(confirming.tool)}
          onCancel={() => dispatch({ type: "confirm-cancel" })}
          onConfirm={(dontAsk) => {
            if (dontAsk) updatePrefs({ confirmDestructive: false });
            const { message, text: sentText } = confirming;
            dispatch({ type: "confirm-accept" });
            void runner.run(message, sentText);
          }}
        />
      )}
      {overlay?.kind === "palette" && <CommandPalette commands={commands} onClose={closeOverlay} />}
      {overlay?.kind === "templates" && live && (
        <CommandPalette
          title="Insert a template"
          placeholder="Filter templates and tools…"
          commands={templateCommands}
          onClose={closeOverlay}
        />
      )}
      {overlay?.kind === "help" && <HelpDialog onClose={closeOverlay} />}
      {overlay?.kind === "share" && live && (
        <ShareDialog
          experiment={{ server, era: live.conn.server.era, request: text }}
          response={lastResponse ?? undefined}
          onClose={closeOverlay}
          {...(oauth.signedIn ? { signedIn: { headers, issuer: oauth.signedIn.issuer } } : {})}
        />
      )}
      {overlay?.kind === "save" && live && (
        <SaveDialog
          draft={{ server, era: live.conn.server.era, request: text }}
          serverLabel={server}
          saved={saved}
          onClose={closeOverlay}
          onSaved={(entry, replaced) => {
            dispatch({ type: "saved", text: `${replaced ? "Replaced" : "Saved"} “${entry.name}” for ${entry.server}.`, at: Date.now() });
          }}
        />
      )}
      {overlay?.kind === "copy" && live && <CopyAsCodeDialog input={codeInput(live)} initial={overlay.language} onClose={closeOverlay} />}
    </div>
  );
}
