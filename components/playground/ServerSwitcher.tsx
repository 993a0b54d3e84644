"use client";

import { useEffect, useState } from "react";
import { type ConnectResponse, type EraChoice, type ProxyErrorBody, type StdioServersResponse, type UserHeaders } from "@/lib/mcp/contract";
import { api, ApiError } from "@/lib/client/api-client";
import { parseHeaderLines } from "@/lib/playground/header-lines";
import { loadHeaders, saveConnection, saveHeaders } from "@/lib/playground/stores/session-store";
import { serverShortName } from "@/lib/playground/stores/tabs-store";
import { ProxyErrorBanner } from "@/components/ui/ProxyErrorBanner";
import { RecentServerList, useRecentServers } from "@/components/ui/RecentServerList";
import { connectField, EraSelect } from "@/components/ui/EraSelect";
import { Modal } from "./Modal";

const field = connectField;

/**
 * What a switch hands the tab: the server's key (as the proxy names it), the era asked for, the answer (absent when the
 * server wants sign-in: the tab then shows its sign-in panel).
 */
export interface SwitchedServer {
  server: string;
  era: EraChoice;
  response?: ConnectResponse;
}

interface Props {
  /** The tab's server. */
  server: string;
  /** The era the tab pins (absent: auto). */
  era?: EraChoice;
  onSwitch: (to: SwitchedServer) => void;
}

/** Why a server field cannot be connected to, or null. stdio names must be among the configured servers. */
export function serverUrlProblem(url: string, stdioNames: readonly string[] | null): string | null {
  if (!url) return "Enter the server's URL, e.g. https://example.com/mcp (or builtin:demo).";
  if (url === "builtin:demo") return null;
  if (url.startsWith("stdio:")) {
    if (stdioNames === null) return "stdio servers are available only when Toolscope runs locally; enter an http(s) URL.";
    return stdioNames.includes(url.slice(6))
      ? null
      : `No stdio server is named “${url.slice(6)}”: choose one of ${stdioNames.length ? stdioNames.map((n) => `stdio:${n}`).join(", ") : "the configured servers (none are configured)"}.`;
  }
  try {
    const u = new URL(url);
    if (u.protocol === "http:" || u.protocol === "https:") return null;
  } catch {
    // falls through to the message below
  }
  return `“${url}” is not an http(s) URL: write it like https://example.com/mcp, or use builtin:demo.`;
}

/**
 * The tab's server, as a button in the playground's bar; it opens a dialog to put the tab on another server (URL, era,
 * headers). Connecting first, then switching: a failure is shown here with the proxy's message and the tab stays where
 * it was. Headers follow the home page's rule: kept for the server in this browser tab's sessionStorage only.
 */
export function ServerSwitcher({ server, era, onSwitch }: Props) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        onClick={() => setOpen(true)}
        aria-haspopup="dialog"
        data-testid="server-switcher"
        title={`Server: ${server}${era ? ` (${era})` : ""}. Change it for this tab.`}
        className="flex min-w-0 max-w-full items-center gap-1.5 rounded-md border border-zinc-300 px-2.5 py-1 text-sm hover:bg-zinc-50 dark:border-zinc-700 dark:hover:bg-zinc-900"
      >
        <span className="text-zinc-500 dark:text-zinc-400">Server</span>
        <span className="min-w-0 truncate font-mono text-xs">{serverShortName(server)}</span>
        {era && <span className="text-xs text-zinc-500 dark:text-zinc-400">{era}</span>}
        <span aria-hidden>▾</span>
      </button>
      {open && (
        <SwitchDialog
          server={server}
          era={era}
          onClose={() => setOpen(false)}
          onSwitch={(to) => {
            setOpen(false);
            onSwitch(to);
          }}
        />
      )}
    </>
  );
}

function headerText(headers: UserHeaders): string {
  return Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}`)
    .join("\n");
}

function SwitchDialog({ server, era, onClose, onSwitch }: Props & { onClose: () => void }) {
  const [url, setUrl] = useState(server);
  const [eraChoice, setEraChoice] = useState<EraChoice>(era ?? "auto");
  const [headerLines, setHeaderLines] = useState(() => headerText(loadHeaders(server)));
  const [problem, setProblem] = useState<string | null>(null);
  const [error, setError] = useState<ProxyErrorBody["error"] | null>(null);
  const [busy, setBusy] = useState(false);
  const [stdio, setStdio] = useState<StdioServersResponse | null>(null);
  const recent = useRecentServers();

  useEffect(() => {
    let cancelled = false;
    fetch("/api/stdio", { cache: "no-store" })
      .then((res) => (res.ok ? (res.json() as Promise<StdioServersResponse>) : null))
      .then((body) => {
        if (!cancelled) setStdio(body);
      })
      .catch(() => undefined);
    return () => {
      cancelled = true;
    };
  }, []);
  const stdioNames = stdio?.enabled ? stdio.servers.map((s) => s.name) : null;

  const pick = (next: string, nextEra?: EraChoice) => {
    setUrl(next);
    if (nextEra) setEraChoice(nextEra);
    // Headers typed for this server earlier in this browser tab come back; values are never in the recent list.
    setHeaderLines(headerText(loadHeaders(next)));
    setProblem(null);
    setError(null);
  };

  async function connect(e: React.FormEvent) {
    e.preventDefault();
    const target = url.trim();
    const bad = serverUrlProblem(target, stdioNames);
    if (bad) return setProblem(bad);
    const { headers, errors } = parseHeaderLines(headerLines);
    if (errors.length) return setProblem(errors.join(" "));
    setProblem(null);
    setError(null);
    setBusy(true);
    try {
      const response = await api.connect({ url: target, era: eraChoice, headers, interactive: true });
      const key = response.connection.url;
      saveConnection(key, response);
      saveHeaders(key, headers);
      const info = response.server.serverInfo;
      recent.remember({ url: key, era: eraChoice, name: info?.title ?? info?.name, headers });
      onSwitch({ server: key, era: eraChoice, response });
    } catch (err) {
      // A server that wants sign-in is switched to all the same: the tab's sign-in panel takes it from there.
      if (err instanceof ApiError && err.body.kind === "upstream-auth") {
        saveHeaders(target, headers);
        return onSwitch({ server: target, era: eraChoice });
      }
      setError(err instanceof ApiError ? err.body : { kind: "internal", message: (err as Error).message });
      setBusy(false);
    }
  }

  return (
    <Modal title="Server for this tab" onClose={onClose} testId="server-switcher-dialog" widthClass="w-[min(36rem,calc(100vw-2rem))]">
      <form onSubmit={connect} className="space-y-3" aria-busy={busy} noValidate>
        <div>
          <label htmlFor="switch-url" className="mb-1 block text-sm font-medium">
            Server URL
          </label>
          <input
            id="switch-url"
            data-autofocus
            className={`${field} font-mono`}
            type="text"
            inputMode="url"
            spellCheck={false}
            autoComplete="off"
            placeholder="https://example.com/mcp"
            value={url}
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? "switch-problem" : "switch-url-hint"}
            onChange={(e) => setUrl(e.target.value)}
          />
          <p id="switch-url-hint" className="mt-1 text-xs text-zinc-500 dark:text-zinc-400">
            An http(s) URL,{" "}
            <button type="button" className="font-mono underline" onClick={() => pick("builtin:demo")}>
              builtin:demo
            </button>
            {stdioNames?.length ? ", or a local stdio server: " : "."}
            {stdioNames?.map((n, i) => (
              <span key={n}>
                {i > 0 && ", "}
                <button type="button" className="font-mono underline" onClick={() => pick(`stdio:${n}`)} data-testid="switch-stdio">
                  stdio:{n}
                </button>
              </span>
            ))}
          </p>
        </div>
        <div>
          <EraSelect id="switch-era" value={eraChoice} onChange={setEraChoice} />
        </div>
        <div>
          <label htmlFor="switch-headers" className="mb-1 block text-sm font-medium">
            Headers, one per line <span className="font-normal text-zinc-500 dark:text-zinc-400">— kept in this browser tab only</span>
          </label>
          <textarea
            id="switch-headers"
            className={`${field} h-20 font-mono`}
            placeholder="Authorization: Bearer …"
            spellCheck={false}
            value={headerLines}
            onChange={(e) => setHeaderLines(e.target.value)}
          />
        </div>
        {problem && (
          <p id="switch-problem" role="alert" data-testid="switch-problem" className="text-sm text-red-700 dark:text-red-400">
            {problem}
          </p>
        )}
        {error && <ProxyErrorBanner error={error} />}
        <div className="flex items-center gap-2">
          <button
            type="submit"
            disabled={busy}
            data-testid="switch-connect"
            className="rounded-md bg-accent-600 px-4 py-2 text-sm font-medium text-white hover:bg-accent-700 disabled:opacity-60"
          >
            {busy ? "Connecting…" : "Connect"}
          </button>
          <button type="button" onClick={onClose} className="rounded-md border border-zinc-300 px-3 py-2 text-sm dark:border-zinc-700">
            Cancel
          </button>
          {error && <span className="text-xs text-zinc-500 dark:text-zinc-400">This tab stays on {serverShortName(server)}.</span>}
        </div>
      </form>
      <div className="mt-4">
        <RecentServerList
          list={recent.list}
          error={recent.error}
          onPick={(e) => pick(e.url, e.era)}
          onRemove={recent.forget}
          onClear={recent.clear}
          testId="switcher-recent"
        />
      </div>
    </Modal>
  );
}
