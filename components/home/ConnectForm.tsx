"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import type { EraChoice } from "@/lib/mcp/contract";
import { connectField, EraSelect } from "@/components/ui/EraSelect";
import { api, ApiError } from "@/lib/client/api-client";
import { parseHeaderLines } from "@/lib/playground/header-lines";
import { completeServerUrl } from "@/lib/playground/server-url-input";
import { loadHeaders, saveConnection, saveHeaders } from "@/lib/playground/stores/session-store";
import { RecentServerList, useRecentServers } from "@/components/ui/RecentServerList";

const field = connectField;

/** Connect to any MCP server by URL; on success, go to its docs (or the playground when credentials are needed). */
export function ConnectForm() {
  const router = useRouter();
  const [url, setUrl] = useState("");
  const [era, setEra] = useState<EraChoice>("auto");
  const [headerText, setHeaderText] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ message: string; hint?: string } | null>(null);
  const recent = useRecentServers();

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    const { headers, errors } = parseHeaderLines(headerText);
    if (errors.length) return setError({ message: errors.join(" ") });
    const target = completeServerUrl(url);
    if ("error" in target) return setError({ message: target.error });
    // The field shows what is sent: a scheme added to "localhost:3001/mcp" is there to see.
    if (target.added) setUrl(target.url);
    setBusy(true);
    setError(null);
    try {
      const res = await api.connect({ url: target.url, era, headers });
      const key = res.connection.url;
      saveConnection(key, res);
      saveHeaders(key, headers);
      const info = res.server.serverInfo;
      recent.remember({ url: key, era, name: info?.title ?? info?.name, headers });
      // Docs pages are public and rendered without credentials; a server that needs them opens in the playground.
      const q = encodeURIComponent(key);
      router.push(Object.keys(headers).length ? `/playground?server=${q}` : `/docs?server=${q}`);
    } catch (err) {
      // Docs pages cannot sign in (they load without credentials): a server that wants sign-in opens in the playground,
      // whose sign-in panel takes it from there.
      if (err instanceof ApiError && err.body.kind === "upstream-auth") {
        saveHeaders(target.url, headers);
        return router.push(`/playground?server=${encodeURIComponent(target.url)}`);
      }
      setError(err instanceof ApiError ? { message: err.body.message, hint: err.body.hint } : { message: (err as Error).message });
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit} className="space-y-3" data-testid="connect-form" aria-busy={busy}>
      <div>
        <label htmlFor="server-url" className="mb-1 block text-sm font-medium">
          MCP server URL
        </label>
        <input
          id="server-url"
          className={field}
          // Text, not type=url: the browser's check refused "localhost:3001/mcp" with only "Please enter a URL";
          // completeServerUrl adds the scheme and says what is wrong otherwise.
          type="text"
          inputMode="url"
          autoComplete="url"
          spellCheck={false}
          autoCapitalize="off"
          placeholder="https://example.com/mcp"
          value={url}
          onChange={(e) => setUrl(e.target.value)}
        />
      </div>
      <div className="flex flex-wrap gap-3">
        <div className="min-w-40 flex-1">
          <EraSelect id="server-era" value={era} onChange={setEra} />
        </div>
      </div>
      <details className="text-sm">
        <summary className="cursor-pointer select-none text-zinc-600 dark:text-zinc-400">
          Headers (e.g. Authorization) — kept in this tab only
        </summary>
        <label htmlFor="server-headers" className="sr-only">
          Headers, one per line
        </label>
        <textarea
          id="server-headers"
          className={`${field} mt-2 h-20 font-mono`}
          placeholder="Authorization: Bearer …"
          value={headerText}
          onChange={(e) => setHeaderText(e.target.value)}
        />
      </details>
      {error && (
        <div
          role="alert"
          data-testid="connect-error"
          className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-900 dark:border-red-900 dark:bg-red-950 dark:text-red-200"
        >
          <p className="font-medium">{error.message}</p>
          {error.hint && <p className="mt-1">{error.hint}</p>}
        </div>
      )}
      <button
        type="submit"
        disabled={busy}
        className="rounded-md bg-accent-600 px-4 py-2 text-sm font-medium text-white hover:bg-accent-700 disabled:opacity-60"
      >
        {busy ? "Connecting…" : "Connect"}
      </button>
      <RecentServerList
        list={recent.list}
        error={recent.error}
        pickVerb="Fill in"
        onPick={(e) => {
          // Fills the form. Header values are not in the list: those typed in this browser tab come back, else the names
          // shown say which to type again.
          setUrl(e.url);
          setEra(e.era);
          setHeaderText(
            Object.entries(loadHeaders(e.url))
              .map(([k, v]) => `${k}: ${v}`)
              .join("\n"),
          );
        }}
        onRemove={recent.forget}
        onClear={recent.clear}
        testId="home-recent"
      />
    </form>
  );
}
