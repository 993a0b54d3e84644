"use client";

import { useState, type ReactNode } from "react";
import type { AddedField, HttpExchange } from "@/lib/mcp/contract";
import { decodeHeaderValue } from "@/lib/mcp/x-mcp-header";

function pretty(body: string | undefined): string {
  if (!body) return "";
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

/**
 * Props: `headers` as [name, value] pairs; MCP headers are highlighted and base64 sentinels decoded. `mark` adds a
 * note after a header's value (e.g. "overridden"); `overridden` names (lower case) get the override colour.
 *
 * Laid out for any header a real server sends, in any width (issue 26: a real server's long
 * `access-control-expose-headers` squeezed the value column to 7 px, one letter a line): one grid whose name column
 * is at most 40% of the width (names wrap at their hyphens past that) and whose values break after separators;
 * a name above its value when the table is narrower than 28rem; long values folded (HeaderValue).
 */
export function HeaderTable({
  headers,
  mark,
  overridden,
}: {
  headers: [string, string][];
  mark?: (name: string, index: number) => ReactNode;
  overridden?: ReadonlySet<string>;
}) {
  return (
    <div className="@container">
      <dl className="grid grid-cols-1 font-mono text-xs @[28rem]:grid-cols-[fit-content(40%)_minmax(0,1fr)]" data-testid="header-table">
        {headers.map(([name, value], i) => {
          const mcp = /^mcp-/i.test(name);
          const decoded = decodeHeaderValue(value);
          const isOverridden = overridden?.has(name.toLowerCase()) ?? false;
          const tone = isOverridden ? "bg-amber-50 dark:bg-amber-900/30" : mcp ? "bg-accent-50 dark:bg-accent-700/20" : "";
          return (
            <div
              key={i}
              className={`col-span-full grid grid-cols-subgrid gap-x-3 py-0.5 ${tone}`}
              data-mcp-header={mcp ? name.toLowerCase() : undefined}
              data-overridden={isOverridden || undefined}
              data-header-row
            >
              <dt
                className={`min-w-0 [overflow-wrap:break-word] ${mcp ? "font-semibold text-accent-700 dark:text-accent-100" : "text-zinc-500"}`}
              >
                {name}
              </dt>
              <dd className="min-w-0 pl-4 @[28rem]:pl-0">
                <HeaderValue value={value} />
                {decoded !== undefined && <span className="ml-2 text-zinc-500">(decoded: {JSON.stringify(decoded)})</span>}
                {mark?.(name, i)}
              </dd>
            </div>
          );
        })}
      </dl>
    </div>
  );
}

/** A value longer than this is shown folded, with its length, a button to show all of it and one to copy it. */
const FOLD_OVER_CHARS = 240;
const FOLDED_CHARS = 160;

/**
 * Break opportunities after the separators header values use (lists, parameters, paths, base64 padding), so a long
 * value wraps between its parts, and anywhere only as a last resort (a token with no separator).
 */
function breakable(value: string): ReactNode[] {
  return value.split(/(?<=[,;/=&])/).flatMap((part, i) => (i === 0 ? [part] : [<wbr key={i} />, part]));
}

function HeaderValue({ value }: { value: string }) {
  const [open, setOpen] = useState(false);
  const [copied, setCopied] = useState(false);
  const long = value.length > FOLD_OVER_CHARS;
  const shown = long && !open ? value.slice(0, FOLDED_CHARS) : value;
  return (
    <>
      <span className="[overflow-wrap:anywhere]" data-testid="header-value">
        {breakable(shown)}
        {long && !open && "…"}
      </span>
      {long && (
        <span className="ml-2 inline-flex gap-1 font-sans">
          <button
            type="button"
            className="rounded px-1 text-accent-700 underline hover:bg-zinc-100 focus-visible:outline-2 dark:text-accent-100 dark:hover:bg-zinc-800"
            aria-expanded={open}
            onClick={() => setOpen(!open)}
          >
            {open ? "Show less" : `Show all ${value.length.toLocaleString("en")} characters`}
          </button>
          <button
            type="button"
            className="rounded px-1 text-accent-700 underline hover:bg-zinc-100 focus-visible:outline-2 dark:text-accent-100 dark:hover:bg-zinc-800"
            onClick={() =>
              void navigator.clipboard?.writeText(value).then(
                () => setCopied(true),
                () => setCopied(false),
              )
            }
          >
            {copied ? "Copied" : "Copy"}
          </button>
        </span>
      )}
    </>
  );
}

/** "overridden by you", and the value the header would have had. */
export function OverrideNote({ replaced }: { replaced?: string }) {
  return (
    <span
      className="mt-0.5 block w-fit break-normal rounded bg-amber-100 px-1 text-amber-900 dark:bg-amber-900/50 dark:text-amber-100"
      data-testid="override-note"
    >
      overridden by you{replaced !== undefined ? `; derived: ${replaced}` : "; not derived from the body"}
    </span>
  );
}

/** Props: `exchanges` the HTTP traffic of one call; `added` what the proxy added to the message. */
export function HttpExchangeView({ exchanges, added = [] }: { exchanges: HttpExchange[]; added?: AddedField[] }) {
  const overrides = new Map(added.filter((a) => a.overridden).map((a) => [a.name.toLowerCase(), a]));
  const overrideMark = (name: string) => {
    const o = overrides.get(name.toLowerCase());
    return o && <OverrideNote replaced={o.replaced} />;
  };
  return (
    <div className="space-y-4" data-testid="http-exchange">
      {added.length > 0 && (
        <section className="rounded-md border border-zinc-200 p-3 text-xs dark:border-zinc-800">
          <h3 className="mb-1 text-sm font-medium">Added to your message</h3>
          <ul className="space-y-0.5 font-mono">
            {added.map((a, i) => (
              <li key={i} className="[overflow-wrap:anywhere]">
                <span className="text-zinc-500">{a.where === "header" ? "header" : "body"}</span> {a.name}: {JSON.stringify(a.value)}
                {a.overridden && <OverrideNote replaced={a.replaced} />}
              </li>
            ))}
          </ul>
        </section>
      )}
      {exchanges.map((x, i) => (
        <section key={i} className="@container rounded-md border border-zinc-200 dark:border-zinc-800">
          <div className="flex flex-wrap items-baseline gap-2 border-b border-zinc-200 px-3 py-2 font-mono text-xs dark:border-zinc-800">
            <span className="font-semibold">{x.request.method}</span>
            <span className="break-all">{x.request.url}</span>
            <span className="ml-auto text-zinc-500">{Math.round(x.durationMs)} ms</span>
          </div>
          {/* Request beside response only when this section is wide enough for both; in the result pane, above it. */}
          <div className="grid gap-3 p-3 @4xl:grid-cols-2">
            <div className="min-w-0">
              <h4 className="mb-1 text-xs font-medium uppercase tracking-wide text-zinc-500">
                {x.transport === "stdio" ? "Written to stdin" : "Request headers"}
              </h4>
              {x.transport !== "stdio" && (
                <HeaderTable headers={x.request.headers} mark={overrideMark} overridden={new Set(overrides.keys())} />
              )}
              {x.request.body && (
                <pre className="mt-2 max-h-72 overflow-auto rounded bg-zinc-50 p-2 text-xs dark:bg-zinc-900">{pretty(x.request.body)}</pre>
              )}
            </div>
            <div className="min-w-0">
              <h4 className="mb-1 text-xs font-medium uppercase tracking-wide text-zinc-500">Response</h4>
              {x.error && <p className="text-sm text-red-700 dark:text-red-400">Failed: {x.error}</p>}
              {x.response && (
                <>
                  <p className="mb-1 font-mono text-xs" data-testid="http-status">
                    {x.transport === "stdio" ? "stdout (no HTTP on stdio)" : `HTTP ${x.response.status} ${x.response.statusText}`}
                  </p>
                  <HeaderTable headers={x.response.headers} />
                  {x.response.sseEvents.length > 0 && (
                    <ol className="mt-2 space-y-1" aria-label="Server-sent events">
                      {x.response.sseEvents.map((e, j) => (
                        <li key={j} className="rounded bg-zinc-50 p-2 font-mono text-xs dark:bg-zinc-900">
                          <span className="text-zinc-500">
                            +{e.atMs} ms {e.event ?? "message"}
                            {e.id ? ` #${e.id}` : ""}
                          </span>
                          <pre className="mt-1 max-h-48 overflow-auto whitespace-pre-wrap break-all">{pretty(e.data)}</pre>
                        </li>
                      ))}
                    </ol>
                  )}
                  {x.response.body && (
                    <pre className="mt-2 max-h-72 overflow-auto rounded bg-zinc-50 p-2 text-xs dark:bg-zinc-900">
                      {pretty(x.response.body)}
                    </pre>
                  )}
                </>
              )}
            </div>
          </div>
        </section>
      ))}
    </div>
  );
}
