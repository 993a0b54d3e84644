import type { ReactNode } from "react";
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
    <table className="w-full border-collapse font-mono text-xs">
      <tbody>
        {headers.map(([name, value], i) => {
          const mcp = /^mcp-/i.test(name);
          const decoded = decodeHeaderValue(value);
          const isOverridden = overridden?.has(name.toLowerCase()) ?? false;
          const tone = isOverridden ? "bg-amber-50 dark:bg-amber-900/30" : mcp ? "bg-accent-50 dark:bg-accent-700/20" : "";
          return (
            <tr key={i} className={tone} data-mcp-header={mcp ? name.toLowerCase() : undefined} data-overridden={isOverridden || undefined}>
              <th
                scope="row"
                className={`whitespace-nowrap py-0.5 pr-3 text-left align-top font-normal ${mcp ? "font-semibold text-accent-700 dark:text-accent-100" : "text-zinc-500"}`}
              >
                {name}
              </th>
              <td className="py-0.5 [overflow-wrap:anywhere]">
                {value}
                {decoded !== undefined && <span className="ml-2 text-zinc-500">(decoded: {JSON.stringify(decoded)})</span>}
                {mark?.(name, i)}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
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
              <li key={i} className="break-all">
                <span className="text-zinc-500">{a.where === "header" ? "header" : "body"}</span> {a.name}: {JSON.stringify(a.value)}
                {a.overridden && <OverrideNote replaced={a.replaced} />}
              </li>
            ))}
          </ul>
        </section>
      )}
      {exchanges.map((x, i) => (
        <section key={i} className="rounded-md border border-zinc-200 dark:border-zinc-800">
          <div className="flex flex-wrap items-baseline gap-2 border-b border-zinc-200 px-3 py-2 font-mono text-xs dark:border-zinc-800">
            <span className="font-semibold">{x.request.method}</span>
            <span className="break-all">{x.request.url}</span>
            <span className="ml-auto text-zinc-500">{Math.round(x.durationMs)} ms</span>
          </div>
          <div className="grid gap-3 p-3 lg:grid-cols-2">
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
