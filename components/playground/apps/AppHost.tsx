"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import { AppBridge, PostMessageTransport } from "@modelcontextprotocol/ext-apps/app-bridge";
import type { ConnectionDescriptor, Tool, UserHeaders } from "@/lib/mcp/contract";
import type { AppViewResponse } from "@/lib/mcp/apps-contract";
import { api, ApiError } from "@/lib/client/api-client";
import { appCallVerdict } from "@/lib/docs/apps/app-calls";
import { APP_RELAY_META, relayFrame } from "@/lib/docs/apps/sandbox-relay";
import {
  APP_INIT_TIMEOUT_MS,
  APP_TEARDOWN_TIMEOUT_MS,
  appliedDisplayMode,
  clampHeight,
  hostContext,
  INITIAL_APP_HEIGHT,
  MAX_APP_HEIGHT,
  messageLabel,
  openableLink,
  serverLabel,
  withEvent,
  type AppEvent,
  type DisplayMode,
} from "@/lib/playground/apps/app-host";
import { MAX_MRTR_ROUNDS } from "@/lib/playground/server-requests/mrtr";
import { MrtrStopped, runMrtrRounds, type InputAsk } from "@/lib/playground/server-requests/mrtr-rounds";
import { AppEvents } from "./AppEvents";
import { AppAsk, type Ask, type AskAnswer } from "./AppAsk";
import { MrtrDialog } from "../server-requests/MrtrDialog";

export interface AppHostProps {
  connection: ConnectionDescriptor;
  headers: UserHeaders;
  tool: Tool;
  tools: readonly Tool[];
  /** The resource the tool names. */
  uri: string;
  /** The arguments exactly as they were sent (the app must see what the server got, not the server's defaults). */
  args: Record<string, unknown>;
  /** The tools/call result. */
  result: Record<string, unknown>;
}

const isDark = () => document.documentElement.classList.contains("dark");
/** The relay: on the sandbox origin the page names (TOOLSCOPE_SANDBOX_ORIGIN), else an opaque frame on our own host. */
const relay = () => relayFrame(document.querySelector(`meta[name="${APP_RELAY_META}"]`)?.getAttribute("content"));
let nextAppCallId = 1;
let nextInputAsk = 1;

/** A JSON-RPC error answer from the server, thrown so the bridge answers the view with it. */
function upstreamError(response: Record<string, unknown> | null): Error {
  const error = response?.error as { message?: unknown } | undefined;
  return new Error(typeof error?.message === "string" ? error.message : "The server gave no answer.");
}

/**
 * An MCP App's view after a call, through the official host library (AppBridge): the view runs in a frame at an
 * opaque origin inside the relay frame (/api/apps/sandbox), and every message it sends to its server goes through
 * Toolscope's API with the app rule applied. Loaded only when an app is shown (the library is its own chunk).
 */
export default function AppHost({ connection, headers, tool, tools, uri, args, result }: AppHostProps) {
  const relayRef = useRef<HTMLIFrameElement>(null);
  const [frame] = useState(relay);
  const [view, setView] = useState<AppViewResponse | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [state, setState] = useState<"loading" | "starting" | "running" | "closed">("loading");
  const [height, setHeight] = useState(INITIAL_APP_HEIGHT);
  const [mode, setMode] = useState<DisplayMode>("inline");
  const modeRef = useRef<DisplayMode>("inline");
  const bridgeRef = useRef<AppBridge | null>(null);
  /** Apply a display mode and tell the view (host-context-changed), whoever asked for it. */
  const changeMode = useCallback((next: DisplayMode) => {
    if (modeRef.current === next) return;
    modeRef.current = next;
    setMode(next);
    void bridgeRef.current?.sendHostContextChange({ displayMode: next });
  }, []);
  const [events, setEvents] = useState<AppEvent[]>([]);
  const [ask, setAsk] = useState<Ask | null>(null);
  const latest = useRef<{ connection: ConnectionDescriptor; headers: UserHeaders; tools: readonly Tool[] }>({ connection, headers, tools });
  const listed = useRef(false);

  const record = useCallback((event: Omit<AppEvent, "n" | "at">) => setEvents((list) => withEvent(list, event)), []);
  const askPerson = useCallback(
    (text: string, offerView = false) => new Promise<AskAnswer>((resolve) => setAsk({ text, offerView, resolve })),
    [],
  );
  /** An MRTR input_required of an app's call, waiting for the person (the playground's own dialog). */
  const [inputAsk, setInputAsk] = useState<(InputAsk & { n: number; resolve: (answers: Record<string, unknown> | null) => void }) | null>(
    null,
  );
  const askInput = useCallback(
    (ask: InputAsk) => new Promise<Record<string, unknown> | null>((resolve) => setInputAsk({ ...ask, n: nextInputAsk++, resolve })),
    [],
  );
  /** Tools the person allowed for the rest of this view's life. */
  const allowedTools = useRef(new Set<string>());

  // The view, read once per call.
  useEffect(() => {
    const ctrl = new AbortController();
    api
      .appView({ connection, headers, uri }, ctrl.signal)
      .then((v) => {
        setView(v);
        setState("starting");
      })
      .catch((err: unknown) => {
        if ((err as Error).name === "AbortError") return;
        setProblem(err instanceof ApiError ? err.body.message : (err as Error).message);
      });
    return () => ctrl.abort();
    // The view is read for the call it was shown for; a later call mounts a new host.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  /** A message of the view for its server, through /api/apps/rpc. */
  const toServer = useCallback(
    async (method: string, params: Record<string, unknown> | undefined) => {
      const { connection: conn, headers: hdrs } = latest.current;
      let verdict = appCallVerdict(method, params, latest.current.tools);
      // A tool this page was not given (a docs page knows only its own tool): ask the server for its list, once.
      if (!verdict.ok && method === "tools/call" && !listed.current) {
        listed.current = true;
        const list = await api.tools(conn, hdrs).catch(() => undefined);
        if (list) latest.current = { ...latest.current, tools: [...latest.current.tools, ...list.tools] };
        verdict = appCallVerdict(method, params, latest.current.tools);
      }
      if (!verdict.ok) {
        record({ direction: "host", label: `refused ${method}: ${verdict.message}` });
        throw new Error(verdict.message);
      }
      let confirmed = false;
      if (verdict.confirm) {
        const name = verdict.tool?.name ?? "";
        const answer = allowedTools.current.has(name)
          ? "view"
          : await askPerson(`The app wants to call "${name}", which may modify (it is not marked read-only).`, true);
        if (answer === "view") allowedTools.current.add(name);
        confirmed = answer !== "refuse";
        record({
          direction: "host",
          label: `${confirmed ? "allowed" : "refused"} the app's call of ${name}${answer === "view" ? " (for this view)" : ""}`,
        });
        if (!confirmed) throw new Error(`The person did not allow the call of "${name}".`);
      }
      const message = { jsonrpc: "2.0", id: `toolscope-app-${nextAppCallId++}`, method, ...(params ? { params } : {}) };
      // A 2026-07-28 server that needs the person's input first (MRTR) answers input_required: the person answers in
      // the playground's input dialog and the call goes again, as it would from the editor.
      let response: Record<string, unknown> | null;
      try {
        response = await runMrtrRounds(message, {
          send: async (m) =>
            (await api.appRpc({ connection: conn, headers: hdrs, message: m, ...(confirmed ? { confirmed } : {}) })).response,
          ask: (ask) => {
            record({ direction: "host", label: `the server asked for input before ${method} (round ${ask.round})` });
            return askInput(ask);
          },
          onRetry: (round) => record({ direction: "host", label: `${method} sent again with the person's input (round ${round})` }),
        });
      } catch (err) {
        if (err instanceof MrtrStopped) record({ direction: "host", label: `${method} not retried: ${err.message}` });
        throw err;
      }
      if (!response || !("result" in response)) throw upstreamError(response);
      const result = response.result as Record<string, unknown> | undefined;
      return result as never;
    },
    [askPerson, askInput, record],
  );

  // The bridge, from the moment the relay frame exists (it announces itself as soon as it loads).
  useEffect(() => {
    const target = relayRef.current?.contentWindow;
    if (!view || !target) return;
    const bridge = new AppBridge(
      null,
      { name: "Toolscope", version: "0.1.0" },
      {
        openLinks: {},
        logging: {},
        serverTools: { listChanged: false },
        serverResources: { listChanged: false },
        message: { text: {} },
        updateModelContext: { text: {}, structuredContent: {} },
        sandbox: { csp: view.csp },
      },
      {
        hostContext: hostContext({
          theme: isDark() ? "dark" : "light",
          displayMode: "inline",
          tool,
          locale: navigator.language,
          timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
          maxHeight: MAX_APP_HEIGHT,
          // Our Tool type keeps inputSchema open (a server may send anything); the library's wants type: "object".
        }) as never,
      },
    );
    bridgeRef.current = bridge;
    let initialized = false;
    bridge.onsandboxready = () => {
      record({ direction: "host", label: "relay ready: view sent" });
      void bridge.sendSandboxResourceReady({ html: view.document, csp: view.csp });
    };
    bridge.oninitialized = () => {
      initialized = true;
      setState("running");
      void bridge.sendToolInput({ arguments: args }).then(() => bridge.sendToolResult(result as never));
    };
    bridge.onsizechange = ({ height: asked }) => setHeight((h) => clampHeight(asked, h));
    bridge.onrequestdisplaymode = async ({ mode: asked }) => {
      const applied = appliedDisplayMode(asked, modeRef.current);
      changeMode(applied);
      return { mode: applied };
    };
    bridge.onopenlink = async ({ url }) => {
      const link = openableLink(url);
      if (!link.ok) {
        record({ direction: "host", label: `refused a link: ${link.reason}` });
        return { isError: true };
      }
      const allowed = (await askPerson(`The app wants to open ${link.url} in a new tab.`)) === "once";
      record({ direction: "host", label: `${allowed ? "opened" : "refused"} ${link.url.slice(0, 200)}` });
      if (allowed) window.open(link.url, "_blank", "noopener,noreferrer");
      return allowed ? {} : { isError: true };
    };
    bridge.onmessage = async () => ({});
    bridge.onupdatemodelcontext = async () => ({});
    bridge.onloggingmessage = () => undefined;
    bridge.onrequestteardown = () => void close();
    bridge.oncalltool = (params) => toServer("tools/call", params as Record<string, unknown>);
    bridge.onreadresource = (params) => toServer("resources/read", params as Record<string, unknown>);
    bridge.onlistresources = (params) => toServer("resources/list", params as Record<string, unknown> | undefined);
    bridge.onlistresourcetemplates = (params) => toServer("resources/templates/list", params as Record<string, unknown> | undefined);

    // Every message both ways, as the event list shows them: the view's through the relay, the host's as sent.
    const transport = new PostMessageTransport(target, target);
    const send = transport.send.bind(transport);
    transport.send = (message, options) => {
      record({ direction: "host→app", label: messageLabel(message), message });
      return send(message, options);
    };
    const hear = (event: MessageEvent) => {
      if (event.source === target && event.origin === frame.origin)
        record({ direction: "app→host", label: messageLabel(event.data), message: event.data });
    };
    window.addEventListener("message", hear);
    void bridge.connect(transport);
    const timer = setTimeout(() => {
      if (!initialized) setProblem(`The app did not start: no ui/notifications/initialized within ${APP_INIT_TIMEOUT_MS / 1000} s.`);
    }, APP_INIT_TIMEOUT_MS);

    let closed = false;
    async function close() {
      if (closed) return;
      closed = true;
      await Promise.race([bridge.teardownResource({}).catch(() => undefined), new Promise((r) => setTimeout(r, APP_TEARDOWN_TIMEOUT_MS))]);
      setState("closed");
    }

    const observer = new MutationObserver(() => void bridge.sendHostContextChange({ theme: isDark() ? "dark" : "light" }));
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ["class"] });
    return () => {
      clearTimeout(timer);
      observer.disconnect();
      window.removeEventListener("message", hear);
      // Teardown before removal: the frame is going, so the answer is not waited for here.
      void bridge.teardownResource({}).catch(() => undefined);
      void bridge.close();
      bridgeRef.current = null;
    };
    // One bridge per view; the arguments and result are this call's.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [view, state === "closed"]);

  // Esc leaves fullscreen. The focus moves to the exit button when fullscreen starts: a key pressed inside the view's
  // frame never reaches this page.
  const exitButton = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (mode !== "fullscreen") return;
    exitButton.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") changeMode("inline");
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [mode, changeMode]);

  const fullscreen = mode === "fullscreen";
  return (
    <section
      className={
        fullscreen
          ? "fixed inset-0 z-[100] flex flex-col bg-white p-3 dark:bg-zinc-950"
          : "rounded-md border border-zinc-200 p-2 dark:border-zinc-800"
      }
      aria-label={`MCP App of ${tool.name}`}
      data-testid="app-host"
      data-state={state}
      data-mode={mode}
    >
      <header className="mb-2 flex flex-wrap items-center gap-2 text-xs">
        <span className="font-medium">MCP App</span>
        <code className="min-w-0 break-all text-zinc-600 dark:text-zinc-400">{uri}</code>
        {view && (
          <span className="text-zinc-500" data-testid="app-size">
            {view.bytes.toLocaleString("en-US")} bytes
          </span>
        )}
        <span className="ml-auto flex gap-2">
          {state === "running" && (
            <button
              type="button"
              className="rounded border border-zinc-300 px-2 py-0.5 dark:border-zinc-700"
              ref={exitButton}
              onClick={() => changeMode(fullscreen ? "inline" : "fullscreen")}
              data-testid="app-fullscreen"
            >
              {fullscreen ? "Exit fullscreen (Esc)" : "Fullscreen"}
            </button>
          )}
        </span>
      </header>
      {ask && <AppAsk ask={ask} onAnswered={() => setAsk(null)} />}
      {inputAsk && (
        <MrtrDialog
          key={inputAsk.n}
          requests={inputAsk.requests}
          serverLabel={serverLabel(connection.url)}
          round={inputAsk.round}
          maxRounds={MAX_MRTR_ROUNDS}
          repeated={inputAsk.repeated}
          onDone={(answers) => {
            setInputAsk(null);
            inputAsk.resolve(answers);
          }}
          onAbandon={() => {
            setInputAsk(null);
            inputAsk.resolve(null);
          }}
        />
      )}
      {problem ? (
        <p
          role="alert"
          className="rounded-md bg-red-50 p-2 text-sm text-red-800 dark:bg-red-950 dark:text-red-200"
          data-testid="app-problem"
        >
          {problem}
        </p>
      ) : state === "loading" ? (
        <p className="text-sm text-zinc-500">Reading the app&apos;s view…</p>
      ) : state === "closed" ? (
        <p className="text-sm text-zinc-500" data-testid="app-closed">
          The app closed its view.
        </p>
      ) : (
        <iframe
          ref={relayRef}
          src={frame.src}
          sandbox={frame.sandbox}
          title={`MCP App of ${tool.name}`}
          className={fullscreen ? "w-full flex-1" : "w-full"}
          style={fullscreen ? undefined : { height }}
          referrerPolicy="no-referrer"
          data-testid="app-frame"
        />
      )}
      {view && view.dropped.length > 0 && (
        <p className="mt-1 text-xs text-amber-700 dark:text-amber-300" data-testid="app-csp-dropped">
          Not granted: {view.dropped.map((d) => `${d.value} (${d.list}: ${d.reason})`).join("; ")}
        </p>
      )}
      <AppEvents events={events} />
    </section>
  );
}
