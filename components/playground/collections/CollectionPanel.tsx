"use client";

import { useEffect, useId, useRef, useState } from "react";
import {
  encodeCollectionShare,
  formatProblem,
  parseCollection,
  proposeExpectations,
  writeCollection,
  type Collection,
  type CollectionCall,
} from "@/lib/collections";
import type { ConnectionDescriptor, Tool, UserHeaders } from "@/lib/mcp/contract";
import { parseMessage } from "@/lib/playground/parse-message";
import { MAX_IMPORT_FILE_BYTES } from "@/lib/playground/stores/saved-transfer";
import { shareableServerUrl } from "@/lib/share/share-codec";
import { loadCollection, saveCollection } from "@/lib/collections/editing/collection-store";
import {
  addCall,
  destructiveTools,
  emptyCollection,
  moveCall,
  notPassed,
  removeCall,
  renameCall,
  storedRequest,
  updateCall,
} from "@/lib/collections/editing/working-collection";
import { MAX_MRTR_ROUNDS } from "@/lib/playground/server-requests/mrtr";
import { ConfirmDestructiveDialog } from "../ConfirmDestructiveDialog";
import { downloadText } from "../library/download";
import { MrtrDialog } from "../server-requests/MrtrDialog";
import { ServerRequestDialog } from "../server-requests/ServerRequestDialog";
import { CallCard, mergeProposals } from "./CallCard";
import { EnvironmentSection } from "./EnvironmentSection";
import { subscribeSharedCollection, takeSharedCollection } from "./shared-collection";
import { useCollectionRun } from "./useCollectionRun";
import { useStableKeys } from "./useStableKeys";

export interface LastExchange {
  /** The message as sent. */
  request: Record<string, unknown>;
  response: Record<string, unknown> | null;
}

interface Props {
  /** The playground's server (a URL or builtin:…): each keeps its own collection in this browser. */
  server: string;
  serverLabel: string;
  connection: ConnectionDescriptor | undefined;
  headers: UserHeaders;
  tools: readonly Tool[];
  /** The editor's text: what "Add the editor's request" adds. */
  editorText: string | null;
  /** The editor's last Send and its answer: what "Expect this" proposes from. */
  lastExchange?: LastExchange;
  confirmDestructive: boolean;
  onStopAskingDestructive: () => void;
  onOpenRequest: (text: string) => void;
  onConnection: (connection: ConnectionDescriptor) => void;
  /** A collection opened from a link waits for this server: it replaces the working one (which Undo brings back). */
  sharedWaiting: boolean;
}

const button =
  "rounded-md border border-zinc-300 px-2 py-0.5 text-sm hover:bg-zinc-50 disabled:opacity-50 disabled:hover:bg-transparent dark:border-zinc-700 dark:hover:bg-zinc-900";

type Status = { text: string; kind: "info" | "error"; undo?: Collection; problems?: string[] };

type Pending = { names?: string[]; tools: Tool[] };

function same(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  return JSON.stringify(storedRequest(a)) === JSON.stringify(storedRequest(b));
}

function fileName(c: Collection): string {
  const base =
    c.name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-|-$/g, "") || "collection";
  return `${base}.collection.json`;
}

/** Collections this browser could not keep (too large, storage full): kept in memory for the page's life. */
const unsaved = new Map<string, Collection>();

/**
 * Set `next` as the server's collection and keep it in this browser; the status says `said` and, after it, what
 * keeping it did (other servers' collections dropped to make room, or why it could not be kept): never silently.
 * A change without a status of its own ends an Undo offer, whose snapshot would now lose this change.
 */
function commit(
  server: string,
  next: Collection,
  setCollection: (c: Collection) => void,
  setStatus: (f: (s: Status | null) => Status | null) => void,
  said?: Status,
): void {
  setCollection(next);
  const saved = saveCollection(window.localStorage, server, next);
  if (saved.ok) unsaved.delete(server);
  else unsaved.set(server, next);
  const evicted = saved.ok && "evicted" in saved && Array.isArray(saved.evicted) ? (saved.evicted as string[]) : [];
  const note = !saved.ok
    ? ` ${saved.error} It stays here until this page is closed.`
    : evicted.length
      ? ` To make room, this browser no longer keeps the collection${evicted.length === 1 ? "" : "s"} of ${evicted.join(", ")}.`
      : "";
  setStatus((current) => {
    if (said) return note ? { ...said, kind: saved.ok ? said.kind : "error", text: said.text + note } : said;
    if (note) return { kind: saved.ok ? "info" : "error", text: note.trim() };
    return current?.undo ? { ...current, undo: undefined } : current;
  });
}

/**
 * The Tests panel: the server's collection of saved calls with expectations, written beside the editor, run here
 * through the runner `toolscope test` uses (lib/collections), imported, exported and shared by link.
 */
export function CollectionPanel(props: Props) {
  const { server, tools, connection, headers, lastExchange, confirmDestructive } = props;
  // Keyed by server in the playground: each server's collection is read once, when its panel mounts (one this browser
  // could not keep is still in memory for the page's life).
  const [collection, setCollection] = useState<Collection>(
    () => unsaved.get(server) ?? loadCollection(window.localStorage, server) ?? emptyCollection(server),
  );
  // What a link's collection replaces (its Undo), read from the link's callback, outside rendering.
  const collectionRef = useRef(collection);
  useEffect(() => {
    collectionRef.current = collection;
  });
  const [status, setStatus] = useState<Status | null>(null);
  const [bail, setBail] = useState(false);
  const [pending, setPending] = useState<Pending | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const toolList = `${useId()}-tools`;
  const { state, question, serverAsks, run, stop, answerServerRequest } = useCollectionRun({
    connection,
    headers,
    onConnection: props.onConnection,
  });

  // A collection from a link replaces the working one (Undo brings it back): one offered before this panel mounted,
  // or while it is open (the tab was on that server already).
  useEffect(() => {
    const open = () => {
      const shared = takeSharedCollection(server);
      if (!shared) return;
      const before = collectionRef.current;
      commit(server, shared, setCollection, setStatus, {
        kind: "info",
        text: `Opened the shared collection “${shared.name}” (${shared.calls.length} calls); nothing has been sent. Header values are never in a link: give yours in the headers panel.`,
        ...(before.calls.length ? { undo: before } : {}),
      });
    };
    const unsubscribe = subscribeSharedCollection(open);
    const waiting = setTimeout(open, 0);
    return () => {
      unsubscribe();
      clearTimeout(waiting);
    };
  }, [server]);

  /** Change the collection, keep it, and say `status` with whatever keeping it had to say. */
  const change = (next: Collection, said?: Status) => commit(server, next, setCollection, setStatus, said);

  const addEditorRequest = () => {
    if (props.editorText === null) return;
    const parsed = parseMessage(props.editorText);
    if (!parsed.ok) return setStatus({ kind: "error", text: `The editor's request cannot be added: ${parsed.error}` });
    const next = addCall(collection, parsed.value);
    change(next, { kind: "info", text: `Added “${next.calls.at(-1)!.name}”: it expects no JSON-RPC error until you say more.` });
  };

  const expectThis = () => {
    if (!lastExchange) return;
    const tool = tools.find((t) => t.name === (lastExchange.request.params as { name?: unknown } | undefined)?.name);
    const proposed = proposeExpectations(lastExchange.request, lastExchange.response, tool);
    const at = collection.calls.findIndex((c) => same(c.request, lastExchange.request));
    if (at >= 0) {
      change(
        updateCall(collection, at, (c) => ({ ...c, expect: mergeProposals(c.expect, proposed) })),
        {
          kind: "info",
          text: `Proposed ${proposed.length} expectations from the last answer for “${collection.calls[at].name}”.`,
        },
      );
    } else {
      const next = addCall(collection, lastExchange.request, proposed);
      change(next, {
        kind: "info",
        text: `Added “${next.calls.at(-1)!.name}” with ${proposed.length} expectations its last answer meets.`,
      });
    }
  };

  /** Run the calls named (all when none), after asking once about destructive tools among them. */
  const start = (names?: string[], ask = confirmDestructive) => {
    const chosen = names ? collection.calls.filter((c) => names.includes(c.name)) : collection.calls;
    const risky = destructiveTools(chosen, tools);
    if (ask && risky.length) return setPending({ names, tools: risky });
    setStatus(null);
    // A single call or the failed ones run with what earlier runs captured ({{id}} of a call before them).
    void run(collection, { names, bail, ...(names ? { variables: state.captured } : {}) });
  };

  const importText = (text: string, from: string) => {
    const parsed = parseCollection(text);
    if (!parsed.ok) {
      return setStatus({
        kind: "error",
        text: `${from} is not a collection this version reads: nothing was changed.`,
        problems: parsed.problems.slice(0, 5).map((p) => formatProblem(from, p)),
      });
    }
    const previous = collection;
    change(parsed.collection, {
      kind: "info",
      text: `Imported “${parsed.collection.name}” (${parsed.collection.calls.length} calls).`,
      ...(previous.calls.length ? { undo: previous } : {}),
      ...(parsed.warnings.length ? { problems: parsed.warnings.map((w) => formatProblem(from, w)) } : {}),
    });
  };

  const callKeys = useStableKeys(collection.calls);
  const reports = new Map(state.calls.map((c) => [c.name, c]));
  const failedNames = notPassed(state.report);
  const summary = state.report?.summary;
  const connected = connection !== undefined;
  const runFor = (names?: string[]) => start(names);

  return (
    <section
      aria-label="Tests"
      className="space-y-2 rounded-md border border-zinc-200 p-3 dark:border-zinc-800"
      data-testid="collection-panel"
    >
      <div className="flex flex-wrap items-center gap-2">
        <h2 className="text-sm font-semibold">Tests</h2>
        <label className="flex min-w-0 flex-1 items-center gap-1 text-xs">
          <span className="text-zinc-500">Collection</span>
          <input
            className="min-w-0 flex-1 rounded border border-zinc-300 bg-white px-1.5 py-0.5 text-sm dark:border-zinc-700 dark:bg-zinc-950"
            value={collection.name}
            onChange={(e) => change({ ...collection, name: e.target.value || "Untitled collection" })}
            data-testid="collection-name"
          />
        </label>
      </div>
      <div className="flex flex-wrap items-center gap-2" role="toolbar" aria-label="Collection">
        <button
          type="button"
          className={button}
          onClick={addEditorRequest}
          disabled={props.editorText === null}
          data-testid="collection-add"
        >
          Add the editor&apos;s request
        </button>
        <button
          type="button"
          className={button}
          onClick={expectThis}
          disabled={!lastExchange}
          title="Expectations the last answer meets, for the request that got it"
          data-testid="collection-expect-this"
        >
          Expect this
        </button>
        <span className="mx-1 h-4 w-px bg-zinc-300 dark:bg-zinc-700" aria-hidden />
        {state.running ? (
          <button type="button" className={button} onClick={stop} data-testid="collection-stop">
            Stop
          </button>
        ) : (
          <>
            <button
              type="button"
              className={`${button} border-accent-600 font-medium`}
              onClick={() => runFor()}
              disabled={!connected || collection.calls.length === 0}
              data-testid="collection-run-all"
            >
              Run all
            </button>
            <button
              type="button"
              className={button}
              onClick={() => runFor(failedNames)}
              disabled={!connected || failedNames.length === 0}
              data-testid="collection-run-failed"
            >
              Run failed{failedNames.length ? ` (${failedNames.length})` : ""}
            </button>
          </>
        )}
        <label className="flex items-center gap-1 text-xs">
          <input type="checkbox" checked={bail} onChange={(e) => setBail(e.target.checked)} data-testid="collection-bail" />
          Stop at the first failure
        </label>
        <span className="mx-1 h-4 w-px bg-zinc-300 dark:bg-zinc-700" aria-hidden />
        <button type="button" className={button} onClick={() => fileInput.current?.click()} data-testid="collection-import">
          Import…
        </button>
        <input
          ref={fileInput}
          type="file"
          accept=".json,application/json"
          className="hidden"
          data-testid="collection-import-file"
          onChange={(e) => {
            const file = e.target.files?.[0];
            e.target.value = "";
            if (!file) return;
            // The playground's one bound for imported files: a file is read whole, so its size is checked first.
            if (file.size > MAX_IMPORT_FILE_BYTES)
              return setStatus({
                kind: "error",
                text: `${file.name} is ${(file.size / 1_000_000).toFixed(1)} MB; an import file may be at most ${MAX_IMPORT_FILE_BYTES / 1_000_000} MB. Nothing was changed.`,
              });
            file.text().then(
              (text) => importText(text, file.name),
              () => setStatus({ kind: "error", text: `${file.name} could not be read. Nothing was changed.` }),
            );
          }}
        />
        <button
          type="button"
          className={button}
          onClick={() => downloadText(fileName(collection), writeCollection(collection))}
          disabled={collection.calls.length === 0}
          data-testid="collection-export"
        >
          Export
        </button>
        <button
          type="button"
          className={button}
          disabled={collection.calls.length === 0}
          data-testid="collection-share"
          onClick={() => {
            try {
              const url = `${window.location.origin}/playground?server=${encodeURIComponent(shareableServerUrl(server))}#${encodeCollectionShare(collection)}`;
              void navigator.clipboard?.writeText(url).catch(() => undefined);
              setStatus({
                kind: "info",
                text: `Link copied (${Math.ceil(url.length / 1024)} KB): it holds the calls and expectations, never a header value.`,
              });
            } catch (err) {
              setStatus({ kind: "error", text: (err as Error).message });
            }
          }}
        >
          Copy link
        </button>
      </div>

      <EnvironmentSection collection={collection} headerNames={Object.keys(headers)} onChange={(c) => change(c)} />

      <div aria-live="polite" className="space-y-1 text-sm">
        {state.running && (
          <p role="status" className="text-zinc-600 dark:text-zinc-400" data-testid="collection-progress">
            Running: {state.calls.length} done{state.current ? `, now “${state.current}”` : ""}…
          </p>
        )}
        {summary && !state.running && (
          <p role="status" className="font-medium" data-testid="collection-summary" data-failed={summary.failed + summary.errors}>
            {summary.total} calls: {summary.passed} passed, {summary.failed} failed, {summary.errors} errors, {summary.skipped} skipped (
            {Math.round(summary.durationMs)} ms)
          </p>
        )}
        {state.error && (
          <p role="alert" className="text-red-700 dark:text-red-300">
            The run stopped: {state.error}
          </p>
        )}
        {status && (
          <div
            role={status.kind === "error" ? "alert" : undefined}
            data-testid="collection-status"
            data-kind={status.kind}
            className={
              status.kind === "error"
                ? "rounded-md border border-red-300 bg-red-50 px-2 py-1 text-red-900 dark:border-red-900 dark:bg-red-950/60 dark:text-red-200"
                : "rounded-md bg-zinc-100 px-2 py-1 dark:bg-zinc-800/70"
            }
          >
            <span>{status.text}</span>
            {status.undo && (
              <button
                type="button"
                className="ml-2 underline"
                data-testid="collection-undo"
                onClick={() => {
                  change(status.undo!, { kind: "info", text: `Back to “${status.undo!.name}”.` });
                }}
              >
                Undo
              </button>
            )}
            {status.problems && (
              <ul className="mt-1 font-mono text-xs" data-testid="collection-problems">
                {status.problems.map((p) => (
                  <li key={p}>{p}</li>
                ))}
              </ul>
            )}
          </div>
        )}
      </div>

      {collection.calls.length === 0 && (
        <p className="text-sm text-zinc-500">
          No calls yet: send a request, then <em>Expect this</em> keeps it with what its answer showed; or import a collection file
          (docs/collections.md). <code>toolscope test</code> runs the exported file in CI.
        </p>
      )}
      <datalist id={toolList}>
        {tools.map((t) => (
          <option key={t.name} value={t.name} />
        ))}
      </datalist>
      <ol className="max-h-[36rem] space-y-1.5 overflow-auto" data-testid="collection-calls">
        {collection.calls.map((call: CollectionCall, i) => (
          <CallCard
            key={callKeys[i]}
            call={call}
            index={i}
            count={collection.calls.length}
            report={reports.get(call.name)}
            current={state.current === call.name}
            running={state.running || !connected}
            tools={tools}
            toolList={toolList}
            onChange={(next) => change(updateCall(collection, i, () => next))}
            onRename={(name) => {
              const renamed = renameCall(collection, i, name);
              if (!renamed.ok) return renamed.error;
              change(renamed.collection);
              return null;
            }}
            onRemove={() => {
              const previous = collection;
              change(removeCall(collection, i), { kind: "info", text: `Removed “${call.name}”.`, undo: previous });
            }}
            onMove={(delta) => change(moveCall(collection, i, delta))}
            onRun={() => runFor([call.name])}
            onOpen={() => props.onOpenRequest(JSON.stringify({ jsonrpc: "2.0", id: 1, ...call.request }, null, 2))}
          />
        ))}
      </ol>

      {pending && (
        <ConfirmDestructiveDialog
          toolName={pending.tools.map((t) => t.name).join(", ")}
          summary={`called by this run; asked once for the whole run`}
          onCancel={() => setPending(null)}
          onConfirm={(dontAsk) => {
            if (dontAsk) props.onStopAskingDestructive();
            const { names } = pending;
            setPending(null);
            start(names, false);
          }}
        />
      )}
      {question && (
        <MrtrDialog
          key={question.call}
          requests={question.requests}
          serverLabel={props.serverLabel}
          round={1}
          maxRounds={MAX_MRTR_ROUNDS}
          repeated={false}
          onDone={(answers) => question.answer(answers)}
          onAbandon={() => question.answer(null)}
        />
      )}
      {serverAsks.length > 0 && (
        <ServerRequestDialog asks={serverAsks} serverLabel={props.serverLabel} onAnswer={answerServerRequest} onCancelCall={stop} />
      )}
    </section>
  );
}
