"use client";

import { useMemo } from "react";
import type { Tool } from "@/lib/mcp/contract";
import { effectiveHints } from "@/lib/docs/annotations";
import { cacheWords } from "@/lib/docs/cache-words";
import { displayName } from "@/lib/docs/display-name";
import { shortJson } from "@/lib/docs/format-value";
import { buildParamTree, walkRows, type ParamRow } from "@/lib/docs/param-rows";
import { scanHeaderDeclarations } from "@/lib/mcp/x-mcp-header";
import { Badge, type BadgeTone } from "@/components/ui/Badge";
import type { ToolListInfo } from "../useConnection";

/** Rows listed per schema in the compact doc; the docs page has the whole tree. */
const MAX_DOC_ROWS = 40;

interface Props {
  tool: Tool;
  /** The tool list's cache hints (ttlMs, cacheScope, fetchedAt). */
  listInfo: ToolListInfo | null;
  /** The tool's docs page; absent when live docs cannot show this server (it needs sign-in, and they carry no credentials). */
  docsHref?: string;
}

const HINT_TONES: Partial<Record<string, BadgeTone>> = {
  "read-only": "success",
  destructive: "danger",
  "may modify": "warning",
  "open world": "info",
};

/** The rows of a schema, nested ones indented, up to the cap. */
function SchemaRows({ schema, empty, testId }: { schema: unknown; empty: string; testId: string }) {
  const { rows, total } = useMemo(() => {
    const tree = buildParamTree(schema, { maxRows: MAX_DOC_ROWS * 4 });
    const out: { row: ParamRow; depth: number }[] = [];
    walkRows(tree.rows, (row, depth) => void out.push({ row, depth }));
    return { rows: out.slice(0, MAX_DOC_ROWS), total: out.length };
  }, [schema]);
  if (rows.length === 0) return <p className="text-xs text-zinc-600 dark:text-zinc-400">{empty}</p>;
  return (
    <>
      <ul className="space-y-1 text-xs" data-testid={testId}>
        {rows.map(({ row, depth }) => (
          <li key={`${row.path}:${row.role}`} style={{ paddingLeft: `${depth * 0.75}rem` }} className="min-w-0">
            <code className="font-semibold break-all">{row.name}</code> <span className="text-zinc-600 dark:text-zinc-400">{row.type}</span>
            {row.required && <span className="ml-1 text-red-700 dark:text-red-400">required</span>}
            {row.hasDefault && <span className="ml-1 text-zinc-600 dark:text-zinc-400">default {shortJson(row.default, 30)}</span>}
            {row.description && <p className="line-clamp-2 text-zinc-600 dark:text-zinc-400">{row.description}</p>}
          </li>
        ))}
      </ul>
      {total > rows.length && (
        <p className="mt-1 text-xs text-zinc-600 dark:text-zinc-400">{total - rows.length} more fields on the docs page.</p>
      )}
    </>
  );
}

function DocSection({ title, children, testId }: { title: string; children: React.ReactNode; testId?: string }) {
  return (
    <section className="mt-2" data-testid={testId}>
      <h4 className="text-[0.7rem] font-semibold tracking-wide text-zinc-600 uppercase dark:text-zinc-400">{title}</h4>
      <div className="mt-0.5">{children}</div>
    </section>
  );
}

/** A compact doc of one tool for the explorer: parameters, output, hints with their defaults, mirrored headers, cache hints. */
export function ExplorerToolDoc({ tool, listInfo, docsHref }: Props) {
  const hints = effectiveHints(tool);
  const headers = scanHeaderDeclarations(tool.inputSchema).declarations;
  const cache = listInfo ? cacheWords({ ttlMs: listInfo.ttlMs, cacheScope: listInfo.cacheScope, fetchedAt: listInfo.fetchedAt }) : null;
  const name = displayName(tool);
  return (
    <div
      className="mt-1 mb-2 rounded-md border border-zinc-200 bg-zinc-50 p-2 text-sm dark:border-zinc-800 dark:bg-zinc-900/60"
      data-testid="explorer-tool-doc"
      aria-label={`About ${tool.name}`}
      role="region"
    >
      {name !== tool.name && <p className="font-medium">{name}</p>}
      {typeof tool.description === "string" && tool.description ? (
        <p className="line-clamp-6 text-xs whitespace-pre-line text-zinc-700 dark:text-zinc-300">{tool.description}</p>
      ) : (
        <p className="text-xs text-zinc-600 italic dark:text-zinc-400">No description.</p>
      )}
      <DocSection title="Hints" testId="explorer-hints">
        <ul className="flex flex-wrap gap-1" aria-label="Behaviour hints">
          {hints
            .filter((h) => h.meaningful)
            .map((h) => (
              <li key={h.key}>
                <Badge
                  tone={HINT_TONES[h.label] ?? "neutral"}
                  variant={h.source === "set" ? "solid" : "dashed"}
                  title={h.explanation}
                  testId={`explorer-hint-${h.key}`}
                >
                  {h.label}
                  {h.source === "default" && <span className="text-[0.65rem] opacity-80"> (default)</span>}
                </Badge>
              </li>
            ))}
        </ul>
      </DocSection>
      <DocSection title="Parameters">
        <SchemaRows schema={tool.inputSchema} empty="No parameters." testId="explorer-params" />
      </DocSection>
      <DocSection title="Output">
        {tool.outputSchema ? (
          <SchemaRows schema={tool.outputSchema} empty="An output schema with no fields." testId="explorer-output" />
        ) : (
          <p className="text-xs text-zinc-600 dark:text-zinc-400">No output schema: the result is content blocks.</p>
        )}
      </DocSection>
      {headers.length > 0 && (
        <DocSection title="Mirrored into headers (x-mcp-header)" testId="explorer-headers">
          <ul className="text-xs">
            {headers.map((d) => (
              <li key={d.header} className="break-all">
                <code>{d.path.join(".")}</code> → <code className="font-semibold">{d.header}</code>
              </li>
            ))}
          </ul>
        </DocSection>
      )}
      {cache && (
        <DocSection title="Tool list cache" testId="explorer-cache">
          <p className="text-xs text-zinc-700 dark:text-zinc-300">
            {cache.freshness}; {cache.scope}
            {cache.relative ? ` (${cache.relative})` : ""}.
          </p>
        </DocSection>
      )}
      {docsHref === undefined ? (
        <p className="mt-2 text-xs text-zinc-600 dark:text-zinc-400" data-testid="explorer-docs-note">
          No docs page link: docs pages load without credentials, and this server needs sign-in. Its docs are the ones shown here, from your
          signed-in connection.
        </p>
      ) : (
        <a
          href={docsHref}
          className="mt-2 inline-block rounded text-xs font-medium text-accent-700 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-accent-600 dark:text-accent-100"
          data-testid="explorer-docs-link"
        >
          Docs page for {tool.name} →
        </a>
      )}
    </div>
  );
}
