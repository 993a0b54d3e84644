"use client";

import { useEffect, useMemo, useState } from "react";
import type { Era, Tool, UserHeaders } from "@/lib/mcp/contract";
import { proxyRequestId } from "@/lib/mcp/meta";
import { MAX_HEADER_OVERRIDES, overrideNameProblem } from "@/lib/mcp/wire-headers";
import {
  buildSendPreview,
  overrideMap,
  previewLines,
  writeIntoRequest,
  type OverrideDraft,
  type PreviewHeader,
} from "@/lib/playground/send-preview";
import type { LogLevelChoice } from "@/lib/playground/notifications";
import { HeaderTable, OverrideNote } from "../wire/HttpExchangeView";

/** Typing must pause this long before the preview is recomputed. */
const PREVIEW_DELAY_MS = 200;

interface Props {
  text: string;
  era: Era;
  transport: "http" | "sse" | "stdio";
  logLevel: LogLevelChoice;
  endpoint: string;
  protocolVersion: string;
  sessionId?: string;
  /** Whether the connection declares the MCP Apps extension (ConnectionDescriptor.apps). */
  apps: boolean;
  tools: readonly Tool[];
  userHeaders: UserHeaders;
  overrides: OverrideDraft[];
  onOverrides: (drafts: OverrideDraft[]) => void;
  /** Replace the editor text (a "Write into the request" click). */
  onText: (text: string) => void;
  open: boolean;
  onOpen: (open: boolean) => void;
}

function useDebounced<T>(value: T, ms: number): T {
  const [current, setCurrent] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setCurrent(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return current;
}

const small = "rounded border border-zinc-300 px-1.5 py-0.5 text-[11px] hover:bg-zinc-50 dark:border-zinc-700 dark:hover:bg-zinc-900";
const input = "min-w-0 rounded border border-zinc-300 bg-white px-1.5 py-0.5 font-mono text-xs dark:border-zinc-700 dark:bg-zinc-950";

/** "Will be sent": the final body (additions marked, each one writable into the request) and the HTTP request line and headers, live. */
export function SendPreview(props: Props) {
  const { overrides, onOverrides, open } = props;
  const text = useDebounced(props.text, PREVIEW_DELAY_MS);
  // One id for the preview's lifetime, so it does not change with every keystroke; the proxy mints a fresh one per send.
  const [previewId] = useState(proxyRequestId);
  const { overrides: valid, problems } = overrideMap(overrides);
  // Rebuilt every render; its content is what the preview depends on.
  const validKey = JSON.stringify(valid);
  const { era, transport, logLevel, endpoint, protocolVersion, sessionId, tools, userHeaders, apps } = props;
  const preview = useMemo(
    () =>
      buildSendPreview({
        text,
        era,
        transport,
        logLevel,
        endpoint,
        protocolVersion,
        sessionId,
        tools,
        userHeaders,
        overrides: JSON.parse(validKey) as Record<string, string>,
        nextId: () => previewId,
        apps,
      }),
    [text, era, transport, logLevel, endpoint, protocolVersion, sessionId, tools, userHeaders, validKey, previewId, apps],
  );
  const active = Object.keys(valid).length;
  const summary = !preview.ok
    ? preview.blocked
      ? "nothing: Send will not send it until fixed"
      : "nothing to show yet"
    : `${preview.http ? `POST · ${preview.http.headers.length} headers` : "stdio · no HTTP"} · ${preview.added.length} field${preview.added.length === 1 ? "" : "s"} added`;

  return (
    <section className="mt-3 rounded-md border border-zinc-200 dark:border-zinc-800" data-testid="send-preview" aria-label="Will be sent">
      <button
        type="button"
        onClick={() => props.onOpen(!open)}
        aria-expanded={open}
        aria-controls="send-preview-body"
        className="flex w-full flex-wrap items-baseline gap-x-2 px-3 py-2 text-left text-sm"
        data-testid="send-preview-toggle"
      >
        <span aria-hidden className="inline-block w-3 text-zinc-500">
          {open ? "▾" : "▸"}
        </span>
        <span className="font-medium">Will be sent</span>
        <span className="text-xs text-zinc-500">{summary}</span>
        {active > 0 && (
          <span
            className="rounded bg-amber-100 px-1.5 text-xs text-amber-900 dark:bg-amber-900/50 dark:text-amber-100"
            data-testid="override-count"
          >
            {active} header override{active === 1 ? "" : "s"}
          </span>
        )}
      </button>
      {open && (
        <div id="send-preview-body" className="space-y-4 border-t border-zinc-200 p-3 dark:border-zinc-800">
          {!preview.ok ? (
            <p className="text-sm text-zinc-500" data-testid="send-preview-problem">
              {preview.problem}
            </p>
          ) : (
            <>
              {preview.http ? (
                <HttpPart http={preview.http} era={era} overrides={overrides} problems={problems} onOverrides={onOverrides} />
              ) : (
                <p className="text-xs text-zinc-600 dark:text-zinc-400" data-testid="send-preview-stdio">
                  stdio: the body below is written to the server process&apos;s stdin as one line. There is no HTTP request, so no headers
                  (and no header overrides).
                </p>
              )}
              <BodyPart
                body={preview.body}
                added={preview.added}
                onWrite={(pointer, value) => props.onText(writeIntoRequest(props.text, pointer, value))}
              />
            </>
          )}
        </div>
      )}
    </section>
  );
}

function HttpPart({
  http,
  era,
  overrides,
  problems,
  onOverrides,
}: {
  http: { method: string; url: string; headers: PreviewHeader[]; endpointNote?: string };
  era: Era;
  overrides: OverrideDraft[];
  problems: (string | undefined)[];
  onOverrides: (d: OverrideDraft[]) => void;
}) {
  const byName = new Map(http.headers.map((h) => [h.name.toLowerCase(), h]));
  const overridden = new Set(http.headers.filter((h) => h.overridden).map((h) => h.name.toLowerCase()));
  const overridable = (name: string) => overrideNameProblem(name) === undefined;
  const add = (draft: OverrideDraft) => overrides.length < MAX_HEADER_OVERRIDES && onOverrides([...overrides, draft]);
  const mark = (name: string) => {
    const h = byName.get(name.toLowerCase());
    if (h?.kind === "user") return <span className="ml-2 text-zinc-500">(your header; value hidden)</span>;
    if (h?.overridden) return <OverrideNote replaced={h.overridden.replaced} />;
    if (h && overridable(name))
      return (
        <button
          type="button"
          className={`${small} ml-2`}
          onClick={() => add({ name: h.name, value: h.value })}
          data-testid={`override-${name.toLowerCase()}`}
        >
          Override
        </button>
      );
    return null;
  };
  return (
    <div className="min-w-0">
      <h4 className="mb-1 text-xs font-medium uppercase tracking-wide text-zinc-500">HTTP request</h4>
      <p className="mb-1 break-all font-mono text-xs" data-testid="send-preview-request-line">
        <span className="font-semibold">{http.method}</span> {http.url}
      </p>
      {http.endpointNote && <p className="mb-1 text-xs text-zinc-500">{http.endpointNote}</p>}
      <div data-testid="send-preview-headers">
        <HeaderTable headers={http.headers.map((h) => [h.name, h.value])} mark={mark} overridden={overridden} />
      </div>
      <div className="mt-2 space-y-1.5 text-xs" data-testid="header-overrides">
        {overrides.map((d, i) => (
          <div key={i}>
            <div className="flex flex-wrap items-center gap-1.5">
              <input
                aria-label={`Overridden header ${i + 1} name`}
                className={`${input} w-44`}
                value={d.name}
                onChange={(e) => onOverrides(overrides.map((o, j) => (j === i ? { ...o, name: e.target.value } : o)))}
              />
              <span aria-hidden>:</span>
              <input
                aria-label={`Overridden header ${i + 1} value`}
                className={`${input} w-48 flex-1`}
                value={d.value}
                onChange={(e) => onOverrides(overrides.map((o, j) => (j === i ? { ...o, value: e.target.value } : o)))}
                data-testid={`override-value-${i}`}
              />
              <button
                type="button"
                className={small}
                onClick={() => onOverrides(overrides.filter((_, j) => j !== i))}
                aria-label={`Remove override of ${d.name || `header ${i + 1}`}`}
              >
                Remove
              </button>
            </div>
            {problems[i] && (
              <p role="alert" className="mt-0.5 text-red-700 dark:text-red-400">
                {problems[i]} (not sent)
              </p>
            )}
          </div>
        ))}
        <p className="text-zinc-500">
          {era === "modern" ? (
            <>
              Override <code>Mcp-Name</code> or an <code>Mcp-Param-*</code> header to make it disagree with the body, e.g. to see a
              2026-07-28 server reject the mismatch (-32020).
            </>
          ) : (
            // Legacy requests carry no Mcp-Name or Mcp-Param-* headers (issue 26: the hint offered them anyway).
            <>Override a header the proxy sends, or add one, to see how the server takes it.</>
          )}{" "}
          Overrides apply to every send until removed.{" "}
          <button
            type="button"
            className={small}
            onClick={() => add({ name: era === "modern" ? "Mcp-Param-" : "", value: "" })}
            disabled={overrides.length >= MAX_HEADER_OVERRIDES}
            data-testid="add-override"
          >
            Add an override
          </button>
        </p>
      </div>
    </div>
  );
}

function BodyPart({
  body,
  added,
  onWrite,
}: {
  body: Record<string, unknown>;
  added: { pointer: string; value: unknown; by: "playground" | "proxy" }[];
  onWrite: (pointer: string, value: unknown) => void;
}) {
  const lines = previewLines(body, new Set(added.map((a) => a.pointer)));
  return (
    <div className="min-w-0">
      <h4 className="mb-1 text-xs font-medium uppercase tracking-wide text-zinc-500">
        Body{" "}
        <span className="font-normal normal-case tracking-normal">
          — <mark className="rounded bg-emerald-100 px-1 text-emerald-900 dark:bg-emerald-900/50 dark:text-emerald-100">added</mark> lines
          are not in your text
        </span>
      </h4>
      <pre className="max-h-72 overflow-auto rounded bg-zinc-50 py-2 text-xs dark:bg-zinc-900" data-testid="send-preview-body">
        {lines.map((l, i) => (
          <div
            key={i}
            className={`px-2 ${l.added ? "bg-emerald-100 text-emerald-950 dark:bg-emerald-900/40 dark:text-emerald-100" : ""}`}
            data-added={l.added || undefined}
          >
            {l.text}
          </div>
        ))}
      </pre>
      {added.length > 0 && (
        <ul className="mt-2 space-y-1 text-xs" data-testid="send-preview-added">
          {added.map((a) => (
            <li key={a.pointer} className="flex items-start gap-2">
              <span className="min-w-0 flex-1">
                <code className="break-all">{a.pointer}</code>{" "}
                <span className="text-zinc-500">
                  added by the {a.by === "proxy" ? "proxy" : "playground"}
                  {a.pointer === "/id" ? " (a fresh one each send)" : ""}
                </span>
              </span>
              <button
                type="button"
                className={`${small} shrink-0`}
                onClick={() => onWrite(a.pointer, a.value)}
                data-testid={`write-${a.pointer}`}
              >
                Write into the request
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
