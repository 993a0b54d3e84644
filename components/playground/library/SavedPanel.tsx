"use client";

import { SearchInput } from "@/components/ui/SearchInput";
import { useMemo, useRef, useState } from "react";
import { describeRequest, groupByServer, MAX_SAVED_NAME_CHARS, searchSaved, type SavedRequest } from "@/lib/playground/stores/saved-store";
import {
  exportFileName,
  exportSaved,
  MAX_IMPORT_FILE_BYTES,
  SavedImportError,
  type ConflictPolicy,
} from "@/lib/playground/stores/saved-transfer";
import { downloadText } from "./download";
import type { SavedRequests } from "./useSaved";

interface Props {
  saved: SavedRequests;
  /** The playground's server: its group comes first. */
  server: string;
  /** Put a saved request in the editor (another server's: open that server's playground with it). Nothing is sent. */
  onOpen: (entry: SavedRequest) => void;
  /** A line from the save dialog ("Saved “x”"), shown while it is newer than the panel's own status. */
  notice?: { text: string; at: number } | null;
}

/** What the status line says, and what Undo puts back. */
type Status = ({ text: string; undo?: SavedRequest[] } | { error: string }) & { at: number };

const small = "rounded border border-zinc-300 px-2 py-0.5 text-xs hover:bg-zinc-50 dark:border-zinc-700 dark:hover:bg-zinc-800";

function time(at: number): string {
  return new Date(at).toLocaleString(undefined, { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" });
}

/** stdio servers cannot travel in a share-style link: their requests open from that server's own playground. */
const linkable = (server: string) => !server.startsWith("stdio:");

/** The saved requests of this browser, grouped by server (this one first): search, open, rename, delete with undo, export, import. */
export function SavedPanel({ saved, server, onOpen, notice }: Props) {
  const [query, setQuery] = useState("");
  const [status, setStatus] = useState<Status | null>(null);
  const [policy, setPolicy] = useState<ConflictPolicy>("replace");
  const [renaming, setRenaming] = useState<{ id: string; name: string; error?: string } | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const { entries } = saved;
  const groups = useMemo(() => groupByServer(searchSaved(entries, query), server), [entries, query, server]);
  const shownCount = groups.reduce((n, g) => n + g.requests.length, 0);

  const exportList = (list: SavedRequest[], forServer?: string) => {
    const now = new Date();
    downloadText(exportFileName(now, forServer), exportSaved(list, now));
    setStatus({ text: `Exported ${list.length} saved request${list.length === 1 ? "" : "s"} (no headers).`, at: Date.now() });
  };

  const remove = async (list: SavedRequest[]) => {
    await saved.remove(list.map((r) => r.id));
    setStatus({
      text: list.length === 1 ? `Deleted “${list[0].name}”.` : `Deleted ${list.length} saved requests.`,
      undo: list,
      at: Date.now(),
    });
  };

  const importFile = async (file: File) => {
    if (file.size > MAX_IMPORT_FILE_BYTES) {
      setStatus({
        error: `${file.name} is ${(file.size / 1_000_000).toFixed(1)} MB; an import file may be at most ${MAX_IMPORT_FILE_BYTES / 1_000_000} MB. Nothing was imported.`,
        at: Date.now(),
      });
      return;
    }
    try {
      setStatus({ text: `${file.name}: ${await saved.importText(await file.text(), policy)}`, at: Date.now() });
    } catch (err) {
      setStatus({
        error: `${file.name} was not imported (nothing changed): ${err instanceof SavedImportError ? err.message : String(err)}`,
        at: Date.now(),
      });
    }
  };

  const commitRename = async () => {
    if (!renaming) return;
    const error = await saved.rename(renaming.id, renaming.name);
    if (error) setRenaming({ ...renaming, error });
    else setRenaming(null);
  };

  const line: Status | null = notice && (!status || notice.at > status.at) ? notice : status;

  return (
    <section aria-labelledby="saved-heading" data-testid="saved-panel" className="space-y-2">
      <div className="flex flex-wrap items-center gap-2">
        <h2 id="saved-heading" className="text-sm font-semibold">
          Saved requests
        </h2>
        <span className="text-xs text-zinc-500">{entries.length} in this browser</span>
        <SearchInput
          value={query}
          onChange={setQuery}
          placeholder="Search: name, words, tool:name, method:…"
          label="Search saved requests"
          testId="saved-search"
        />
        <div className="flex flex-wrap items-center gap-2">
          <button
            type="button"
            className={small}
            onClick={() => exportList(entries)}
            disabled={entries.length === 0}
            data-testid="saved-export-all"
          >
            Export all
          </button>
          <button type="button" className={small} onClick={() => fileInput.current?.click()} data-testid="saved-import">
            Import…
          </button>
          <input
            ref={fileInput}
            type="file"
            accept="application/json,.json"
            className="sr-only"
            tabIndex={-1}
            aria-hidden="true"
            data-testid="saved-import-file"
            onChange={(e) => {
              const file = e.target.files?.[0];
              e.target.value = "";
              if (file) void importFile(file);
            }}
          />
          <label className="flex items-center gap-1 text-xs text-zinc-600 dark:text-zinc-400">
            On import, a same-named request:
            <select
              value={policy}
              onChange={(e) => setPolicy(e.target.value as ConflictPolicy)}
              data-testid="saved-import-policy"
              className="rounded border border-zinc-300 bg-white px-1 py-0.5 text-xs dark:border-zinc-700 dark:bg-zinc-900"
            >
              <option value="replace">is replaced</option>
              <option value="skip">is kept</option>
            </select>
          </label>
          {entries.length > 0 && (
            <button
              type="button"
              className="text-xs text-zinc-500 underline"
              data-testid="saved-delete-all"
              onClick={() => void remove(entries)}
            >
              Delete all
            </button>
          )}
        </div>
      </div>

      <div aria-live="polite" className="text-sm">
        {line && "error" in line && (
          <p
            role="alert"
            data-testid="saved-status"
            data-kind="error"
            className="rounded-md border border-red-300 bg-red-50 px-2 py-1 text-red-900 dark:border-red-900 dark:bg-red-950/60 dark:text-red-200"
          >
            {line.error}
          </p>
        )}
        {line && "text" in line && (
          <p
            data-testid="saved-status"
            data-kind="info"
            className="flex flex-wrap items-center gap-2 rounded-md bg-zinc-100 px-2 py-1 dark:bg-zinc-800/70"
          >
            <span className="min-w-0 flex-1">{line.text}</span>
            {line.undo && (
              <button
                type="button"
                className={small}
                data-testid="saved-undo"
                onClick={() => {
                  const back = line.undo!;
                  void saved.restore(back).then(() =>
                    setStatus({
                      text: back.length === 1 ? `Restored “${back[0].name}”.` : `Restored ${back.length} saved requests.`,
                      at: Date.now(),
                    }),
                  );
                }}
              >
                Undo
              </button>
            )}
          </p>
        )}
      </div>

      {entries.length === 0 && (
        <p className="text-sm text-zinc-500">
          Nothing saved yet: press Save (Ctrl/Cmd+S) to keep the editor&apos;s request under a name, in this browser only.
        </p>
      )}
      {entries.length > 0 && shownCount === 0 && <p className="text-sm text-zinc-500">No saved request matches.</p>}

      <div className="max-h-96 space-y-3 overflow-auto">
        {groups
          .filter((g) => g.requests.length > 0)
          .map((g) => {
            const here = g.server === server;
            return (
              <section
                key={g.server}
                aria-label={`Saved for ${g.server}`}
                data-testid="saved-group"
                data-server={g.server}
                className="rounded-md border border-zinc-200 dark:border-zinc-800"
              >
                <div className="flex flex-wrap items-center gap-2 border-b border-zinc-200 bg-zinc-50 px-2 py-1 dark:border-zinc-800 dark:bg-zinc-900">
                  <h3 className="min-w-0 break-all font-mono text-xs font-semibold">{g.server}</h3>
                  {here && (
                    <span className="rounded bg-accent-50 px-1.5 text-[11px] text-accent-700 dark:bg-accent-700/30 dark:text-accent-100">
                      this server
                    </span>
                  )}
                  {!here && !linkable(g.server) && (
                    <a
                      href={`/playground?server=${encodeURIComponent(g.server)}`}
                      className="text-xs text-accent-700 underline dark:text-accent-400"
                    >
                      open its playground to use these
                    </a>
                  )}
                  <span className="ml-auto" />
                  <button
                    type="button"
                    className={small}
                    onClick={() => exportList(g.requests, g.server)}
                    data-testid="saved-export-group"
                    aria-label={`Export the saved requests of ${g.server}`}
                  >
                    Export
                  </button>
                </div>
                <ul className="divide-y divide-zinc-100 dark:divide-zinc-800">
                  {g.requests.map((r) => {
                    const { method, tool } = describeRequest(r.request);
                    const editing = renaming?.id === r.id;
                    return (
                      <li
                        key={r.id}
                        className="flex flex-wrap items-center gap-x-3 gap-y-1 px-2 py-1.5 text-sm"
                        data-testid="saved-entry"
                        data-name={r.name}
                      >
                        {editing ? (
                          <form
                            className="flex min-w-0 flex-1 flex-wrap items-center gap-2"
                            onSubmit={(e) => {
                              e.preventDefault();
                              void commitRename();
                            }}
                          >
                            <input
                              autoFocus
                              value={renaming.name}
                              maxLength={MAX_SAVED_NAME_CHARS}
                              onChange={(e) => setRenaming({ id: r.id, name: e.target.value })}
                              onKeyDown={(e) => {
                                if (e.key === "Escape") {
                                  e.preventDefault();
                                  setRenaming(null);
                                }
                              }}
                              aria-label={`New name for ${r.name}`}
                              aria-invalid={Boolean(renaming.error)}
                              data-testid="saved-rename-input"
                              className="min-w-0 flex-1 basis-40 rounded border border-zinc-300 bg-white px-1.5 py-0.5 text-sm dark:border-zinc-700 dark:bg-zinc-950"
                            />
                            <button type="submit" className={small} data-testid="saved-rename-ok">
                              OK
                            </button>
                            <button type="button" className={small} onClick={() => setRenaming(null)}>
                              Cancel
                            </button>
                            {renaming.error && (
                              <span role="alert" className="basis-full text-xs text-red-700 dark:text-red-400">
                                {renaming.error}
                              </span>
                            )}
                          </form>
                        ) : (
                          <span className="min-w-0 flex-1 basis-full sm:basis-40">
                            <span className="font-medium" data-testid="saved-name">
                              {r.name}
                            </span>
                            <span className="ml-2 font-mono text-xs text-zinc-500">
                              {method ?? "(not JSON-RPC)"}
                              {tool ? ` · ${tool}` : ""}
                            </span>
                            {r.note && <span className="block text-xs text-zinc-600 dark:text-zinc-400">{r.note}</span>}
                          </span>
                        )}
                        {!editing && (
                          <>
                            <span className="text-xs text-zinc-500" title={`Saved ${new Date(r.createdAt).toLocaleString()}`}>
                              {r.era ? `${r.era} · ` : ""}
                              {time(r.updatedAt)}
                            </span>
                            <span className="ml-auto flex items-center gap-1.5">
                              {(here || linkable(g.server)) && (
                                <button
                                  type="button"
                                  className={small}
                                  onClick={() => onOpen(r)}
                                  data-testid="saved-open"
                                  aria-label={`Open “${r.name}” in the editor`}
                                >
                                  Open
                                </button>
                              )}
                              <button
                                type="button"
                                className={small}
                                onClick={() => setRenaming({ id: r.id, name: r.name })}
                                data-testid="saved-rename"
                                aria-label={`Rename “${r.name}”`}
                              >
                                Rename
                              </button>
                              <button
                                type="button"
                                className={`${small} hover:text-red-700`}
                                onClick={() => void remove([r])}
                                data-testid="saved-delete"
                                aria-label={`Delete “${r.name}”`}
                              >
                                Delete
                              </button>
                            </span>
                          </>
                        )}
                      </li>
                    );
                  })}
                </ul>
              </section>
            );
          })}
      </div>
    </section>
  );
}
