import type { ServerSummary, ToolsResponse } from "@/lib/mcp/contract";
import { cacheWords, recordedCacheWords } from "@/lib/docs/cache-words";
import { Badge } from "@/components/ui/Badge";
import { Markdown } from "@/components/ui/Markdown";
import { DeprecationNotes } from "@/components/ui/DeprecationNotes";
import { serverDeprecations } from "@/lib/mcp/deprecations";
import { ToolIcon } from "./tool/ToolIcon";

interface Props {
  server: ServerSummary;
  list: Pick<ToolsResponse, "ttlMs" | "cacheScope" | "fetchedAt" | "pages" | "warnings">;
  /** Page-level controls shown at the right of the heading (Share, exports). */
  actions?: React.ReactNode;
  /** A recorded list (a snapshot): its cache hints are described as declared, not as a live countdown. */
  recorded?: boolean;
}

function Fact({
  label,
  children,
  testId,
  className = "",
}: {
  label: string;
  children: React.ReactNode;
  testId?: string;
  className?: string;
}) {
  return (
    <div className={`min-w-0 ${className}`}>
      <dt className="text-xs uppercase tracking-wide text-zinc-500">{label}</dt>
      <dd className="mt-0.5 break-words text-sm" data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}

const SSE_TITLE =
  "The server speaks the HTTP+SSE transport of 2024-11-05, deprecated since 2025-03-26: clients open an event stream with GET and POST messages to the endpoint it names. Current clients may not support it.";

/** A server's identity, era, capabilities, instructions and the tool list's cache metadata. */
export function ServerOverview({ server, list, actions, recorded = false }: Props) {
  const info = server.serverInfo;
  const name = info?.title ?? info?.name ?? server.displayUrl;
  const cache = cacheWords({ ttlMs: list.ttlMs, cacheScope: list.cacheScope, fetchedAt: list.fetchedAt });
  const caps = Object.entries(server.capabilities);
  const listChanged = (server.capabilities.tools as { listChanged?: unknown } | undefined)?.listChanged === true;
  return (
    <header>
      {/* Wraps: on a narrow screen the actions go below the name instead of squeezing it. */}
      <div className="flex flex-wrap items-start gap-3">
        <ToolIcon icons={info?.icons} name={name} size={40} testId="server-icon" />
        <div className="min-w-[min(16rem,calc(100%-3.25rem))] flex-1">
          <h1 className="text-2xl font-semibold tracking-tight">{name}</h1>
          <p className="text-sm text-zinc-500">
            {info?.name && info.name !== name && <code className="mr-2">{info.name}</code>}
            {info?.version && <span className="mr-2">v{info.version}</span>}
            <span className="break-all">{server.displayUrl}</span>
          </p>
        </div>
        {actions && <div className="shrink-0 max-sm:ml-auto">{actions}</div>}
      </div>
      {info?.description && <p className="mt-2 text-sm">{info.description}</p>}
      <dl className="mt-4 grid grid-cols-2 gap-4 sm:grid-cols-4">
        {/* The HTTP+SSE badge is too long for a quarter (or, on a phone, half) of the row: it takes two columns there. */}
        <Fact label="Era" testId="server-era" className={server.transport === "sse" ? "col-span-2 lg:col-span-1" : ""}>
          {server.transport === "sse" ? (
            <Badge tone="warning" variant="solid" title={SSE_TITLE} testId="server-transport">
              legacy · HTTP+SSE (deprecated)
            </Badge>
          ) : (
            <Badge tone={server.era === "modern" ? "accent" : "neutral"} variant="solid">
              {server.era === "modern" ? "modern (stateless)" : "legacy (session)"}
            </Badge>
          )}
        </Fact>
        <Fact label="Protocol version">{server.protocolVersion}</Fact>
        <Fact label="Supported versions">{server.supportedVersions.join(", ")}</Fact>
        <Fact label="Tool list">{listChanged ? "announces listChanged" : "no listChanged announcement"}</Fact>
      </dl>
      <div className="mt-4">
        <h2 className="text-xs uppercase tracking-wide text-zinc-500">Capabilities</h2>
        <ul className="mt-1 flex flex-wrap gap-1.5" data-testid="capabilities">
          {caps.length === 0 && <li className="text-sm text-zinc-500">none declared</li>}
          {caps.map(([cap, value]) => (
            <li key={cap}>
              <Badge title={JSON.stringify(value)}>{cap}</Badge>
            </li>
          ))}
        </ul>
      </div>
      <DeprecationNotes items={serverDeprecations(server)} testId="server-deprecations" className="mt-4 block" />
      <div className="mt-4 rounded-md border border-zinc-200 p-3 text-sm dark:border-zinc-800" data-testid="cache-metadata">
        {recorded ? (
          <p>
            <span className="font-medium">tools/list cache:</span> {recordedCacheWords(list)}
            <span className="block text-xs text-zinc-500">
              Fetched over {list.pages} page{list.pages === 1 ? "" : "s"}. A snapshot is permanent: these hints described the live list when
              it was taken.
            </span>
          </p>
        ) : (
          <>
            <p>
              <span className="font-medium">tools/list cache:</span> {cache.freshness}
              {cache.cacheable && <>; {cache.scope}</>}
            </p>
            <p className="mt-0.5 text-xs text-zinc-500">
              Fetched {new Date(list.fetchedAt).toUTCString()} over {list.pages} page{list.pages === 1 ? "" : "s"}
              {cache.expiresAt && <> · expires {new Date(cache.expiresAt).toUTCString()}</>}
            </p>
          </>
        )}
        {list.warnings.map((w, i) => (
          <p key={i} className="mt-1 text-xs text-amber-800 dark:text-amber-300">
            {w}
          </p>
        ))}
      </div>
      {server.instructions && (
        <details className="mt-4 rounded-md border border-zinc-200 p-3 dark:border-zinc-800" open>
          <summary className="cursor-pointer text-sm font-medium">Server instructions</summary>
          <Markdown source={server.instructions} className="mt-2" />
        </details>
      )}
    </header>
  );
}
