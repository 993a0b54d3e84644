"use client";

import { useCallback, useEffect, useId, useRef, useState } from "react";
import type { ConnectionDescriptor, UserHeaders } from "@/lib/mcp/contract";
import { api, ApiError } from "@/lib/client/api-client";
import {
  declares,
  fillUriTemplate,
  MAX_LIST_PAGES,
  promptGetText,
  resourceReadText,
  scanUriTemplate,
  walkList,
  type ExplorerPrompt,
  type ExplorerResource,
  type ExplorerTemplate,
  type ListName,
  type ListWalk,
  type WalkItem,
} from "@/lib/playground/explorer";
import { explorerItem, explorerSectionHeading } from "./explorer-styles";

interface Props {
  connection: ConnectionDescriptor;
  capabilities: Record<string, unknown>;
  headers: UserHeaders;
  /** The id for the next request put in the editor. */
  nextId: () => number;
  onChoose: (text: string) => void;
  /** A replacement descriptor the proxy handed back (a new legacy session). */
  onConnection: (c: ConnectionDescriptor) => void;
  /** Bumped when the server announced that the resource / prompt list changed: the lists are fetched again. */
  versions: { resources: number; prompts: number };
  /** Why the lists wait for a click instead of loading at once (absent: they load at once). */
  deferred?: string;
  /** Told the prompts once listed, so the arguments form can fill a prompts/get. */
  onPrompts?: (prompts: ExplorerPrompt[]) => void;
}

type Loaded<T> = { state: "loading" } | { state: "done"; walk: ListWalk<T> };

/** What a list's state says under its heading: pages walked, more left, entries skipped, the error. */
function ListNotes<T>({ loaded, method }: { loaded: Loaded<T> | undefined; method: string }) {
  if (!loaded || loaded.state === "loading") return <p className="px-1 text-xs text-zinc-600 dark:text-zinc-400">Loading {method}…</p>;
  const { walk } = loaded;
  return (
    <>
      {walk.error && (
        <p role="alert" className="px-1 text-xs text-red-700 dark:text-red-400" data-testid="explorer-list-error">
          {walk.error}
        </p>
      )}
      {walk.more && (
        <p className="px-1 text-xs text-amber-800 dark:text-amber-300">
          Showing the first {MAX_LIST_PAGES} pages; the server has more (send {method} with a cursor to read on).
        </p>
      )}
      {walk.skipped > 0 && (
        <p className="px-1 text-xs text-amber-800 dark:text-amber-300">
          {walk.skipped} entr{walk.skipped === 1 ? "y" : "ies"} without the field that names {walk.skipped === 1 ? "it" : "them"} left out.
        </p>
      )}
      {!walk.error && walk.items.length === 0 && <p className="px-1 text-xs text-zinc-600 dark:text-zinc-400">None.</p>}
    </>
  );
}

function ItemLabel({ name, title, detail }: { name: string; title?: string; detail?: string }) {
  return (
    <>
      <span className="block truncate font-mono text-xs">{title ?? name}</span>
      {detail && <span className="block truncate text-[0.7rem] text-zinc-600 dark:text-zinc-400">{detail}</span>}
    </>
  );
}

/** A resource template: inputs for its `{var}` variables fill the uri; Open puts the resources/read in the editor. */
function TemplateForm({ template, onOpen }: { template: ExplorerTemplate; onOpen: (uri: string) => void }) {
  const { variables, unsupported } = scanUriTemplate(template.uriTemplate);
  const [values, setValues] = useState<Record<string, string>>({});
  const uri = fillUriTemplate(template.uriTemplate, values);
  const missing = variables.filter((v) => !values[v]);
  const baseId = useId();
  return (
    <form
      className="mx-1 mt-1 mb-2 space-y-1.5 rounded-md border border-zinc-200 bg-zinc-50 p-2 text-xs dark:border-zinc-800 dark:bg-zinc-900/60"
      data-testid="explorer-template-form"
      onSubmit={(e) => {
        e.preventDefault();
        onOpen(uri);
      }}
    >
      {template.description && <p className="text-zinc-700 dark:text-zinc-300">{template.description}</p>}
      {variables.map((v, i) => (
        <label key={v} className="block" htmlFor={`${baseId}-${i}`}>
          <span className="font-mono">{v}</span>
          <input
            id={`${baseId}-${i}`}
            value={values[v] ?? ""}
            onChange={(e) => setValues((old) => ({ ...old, [v]: e.target.value }))}
            className="mt-0.5 block w-full rounded border border-zinc-300 bg-white px-1.5 py-0.5 font-mono dark:border-zinc-700 dark:bg-zinc-950"
            data-testid={`explorer-template-var-${v}`}
          />
        </label>
      ))}
      {unsupported.length > 0 && (
        <p className="text-amber-800 dark:text-amber-300">
          {unsupported.join(", ")}: RFC 6570 expressions beyond <code>{"{var}"}</code> are left as written; edit them in the request.
        </p>
      )}
      <p className="break-all">
        <span className="text-zinc-600 dark:text-zinc-400">uri: </span>
        <code data-testid="explorer-template-uri">{uri}</code>
      </p>
      {missing.length > 0 && <p className="text-zinc-600 dark:text-zinc-400">Still to fill: {missing.join(", ")}.</p>}
      <button
        type="submit"
        className="rounded-md border border-zinc-300 px-2 py-0.5 hover:bg-white focus-visible:outline-2 focus-visible:outline-accent-600 dark:border-zinc-700 dark:hover:bg-zinc-800"
        data-testid="explorer-template-open"
      >
        Open resources/read
      </button>
    </form>
  );
}

/**
 * The server's resources, resource templates and prompts (each shown when the server declares the capability),
 * read with `resources/list`, `resources/templates/list` and `prompts/list` through the proxy, page by page.
 */
export function ExplorerResources({
  connection,
  capabilities,
  headers,
  nextId,
  onChoose,
  onConnection,
  versions,
  deferred,
  onPrompts,
}: Props) {
  const [resources, setResources] = useState<Loaded<ExplorerResource>>();
  const [templates, setTemplates] = useState<Loaded<ExplorerTemplate>>();
  const [prompts, setPrompts] = useState<Loaded<ExplorerPrompt>>();
  const [openTemplate, setOpenTemplate] = useState<string | null>(null);
  const [refreshes, setRefreshes] = useState(0);
  const waiting = deferred !== undefined && refreshes === 0;
  const hasResources = declares(capabilities, "resources");
  const hasPrompts = declares(capabilities, "prompts");
  const promptsListed = prompts?.state === "done" ? prompts.walk.items : undefined;
  useEffect(() => {
    if (promptsListed) onPrompts?.(promptsListed);
  }, [promptsListed, onPrompts]);
  // The latest descriptor (a call may replace it, e.g. a new legacy session): no reason to list again, but the next
  // listing uses it.
  const latest = useRef({ connection, onConnection });
  useEffect(() => {
    latest.current = { connection, onConnection };
  });

  const load = useCallback(
    async <L extends ListName>(list: L, set: (l: Loaded<WalkItem<L>>) => void, signal: AbortSignal) => {
      set({ state: "loading" });
      const walk = await walkList(list, async (message) => {
        try {
          const rpc = await api.rpc(latest.current.connection, message, headers, signal);
          if (rpc.connection) latest.current.onConnection(rpc.connection);
          return { response: rpc.response };
        } catch (err) {
          if ((err as Error).name === "AbortError") throw err;
          const body = err instanceof ApiError ? err.body : { message: (err as Error).message, hint: undefined };
          return { error: `${body.message}${body.hint ? ` ${body.hint}` : ""}` };
        }
      });
      if (!signal.aborted) set({ state: "done", walk });
    },
    [headers],
  );

  useEffect(() => {
    if (!hasResources || waiting) return;
    const ctrl = new AbortController();
    const run = async () => {
      await load("resources", setResources, ctrl.signal);
      await load("templates", setTemplates, ctrl.signal);
    };
    run().catch(() => undefined);
    return () => ctrl.abort();
  }, [hasResources, waiting, load, versions.resources, refreshes]);

  useEffect(() => {
    if (!hasPrompts || waiting) return;
    const ctrl = new AbortController();
    load("prompts", setPrompts, ctrl.signal).catch(() => undefined);
    return () => ctrl.abort();
  }, [hasPrompts, waiting, load, versions.prompts, refreshes]);

  if (!hasResources && !hasPrompts)
    return (
      <p className="mt-3 px-1 text-xs text-zinc-600 dark:text-zinc-400" data-testid="explorer-no-resources">
        The server declares neither resources nor prompts.
      </p>
    );

  const busy = resources?.state === "loading" || templates?.state === "loading" || prompts?.state === "loading";
  return (
    <div className="mt-3 space-y-3" data-testid="explorer-resources">
      <div className="flex items-center gap-2 px-1">
        <span className="text-xs text-zinc-600 dark:text-zinc-400">
          {[hasResources && "Resources", hasPrompts && "prompts"].filter(Boolean).join(" and ")} of the server
        </span>
        <button
          type="button"
          onClick={() => setRefreshes((n) => n + 1)}
          disabled={busy}
          className="ml-auto rounded-md border border-zinc-300 px-2 py-0.5 text-xs hover:bg-zinc-50 focus-visible:outline-2 focus-visible:outline-accent-600 disabled:opacity-60 dark:border-zinc-700 dark:hover:bg-zinc-900"
          data-testid="explorer-refresh"
        >
          {busy ? "Loading…" : waiting ? "Load" : "Refresh"}
        </button>
      </div>
      {waiting && (
        <p className="px-1 text-xs text-zinc-600 dark:text-zinc-400" data-testid="explorer-deferred">
          {deferred}
        </p>
      )}
      {hasResources && !waiting && (
        <section aria-label="Resources" data-testid="explorer-resource-list">
          <h3 className={explorerSectionHeading}>Resources{resources?.state === "done" ? ` (${resources.walk.items.length})` : ""}</h3>
          <ListNotes loaded={resources} method="resources/list" />
          {resources?.state === "done" && (
            <ul>
              {resources.walk.items.map((r) => (
                <li key={r.uri}>
                  <button
                    type="button"
                    className={explorerItem}
                    title={r.description ?? r.uri}
                    onClick={() => onChoose(resourceReadText(r.uri, nextId()))}
                    data-testid="explorer-resource"
                    data-explorer-item
                  >
                    <ItemLabel name={r.name} title={r.title} detail={r.uri} />
                  </button>
                </li>
              ))}
            </ul>
          )}
        </section>
      )}
      {hasResources && !waiting && (
        <section aria-label="Resource templates" data-testid="explorer-template-list">
          <h3 className={explorerSectionHeading}>
            Resource templates{templates?.state === "done" ? ` (${templates.walk.items.length})` : ""}
          </h3>
          <ListNotes loaded={templates} method="resources/templates/list" />
          {templates?.state === "done" && (
            <ul>
              {templates.walk.items.map((t) => {
                const open = openTemplate === t.uriTemplate;
                return (
                  <li key={t.uriTemplate}>
                    <button
                      type="button"
                      className={explorerItem}
                      aria-expanded={open}
                      title={t.description ?? t.uriTemplate}
                      onClick={() => setOpenTemplate(open ? null : t.uriTemplate)}
                      data-testid="explorer-template"
                      data-explorer-item
                    >
                      <ItemLabel name={t.name} title={t.title} detail={t.uriTemplate} />
                    </button>
                    {open && <TemplateForm template={t} onOpen={(uri) => onChoose(resourceReadText(uri, nextId()))} />}
                  </li>
                );
              })}
            </ul>
          )}
        </section>
      )}
      {hasPrompts && !waiting && (
        <section aria-label="Prompts" data-testid="explorer-prompt-list">
          <h3 className={explorerSectionHeading}>Prompts{prompts?.state === "done" ? ` (${prompts.walk.items.length})` : ""}</h3>
          <ListNotes loaded={prompts} method="prompts/list" />
          {prompts?.state === "done" && (
            <ul>
              {prompts.walk.items.map((p) => (
                <li key={p.name}>
                  <button
                    type="button"
                    className={explorerItem}
                    title={p.description ?? p.name}
                    onClick={() => onChoose(promptGetText(p, nextId()))}
                    data-testid="explorer-prompt"
                    data-explorer-item
                  >
                    <ItemLabel
                      name={p.name}
                      title={p.title}
                      detail={p.arguments.length ? p.arguments.map((a) => `${a.name}${a.required ? "*" : ""}`).join(", ") : "no arguments"}
                    />
                  </button>
                </li>
              ))}
            </ul>
          )}
        </section>
      )}
    </div>
  );
}
