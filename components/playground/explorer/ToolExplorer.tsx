"use client";

import { useMemo, useRef, useState } from "react";
import type { ConnectionDescriptor, Tool, UserHeaders } from "@/lib/mcp/contract";
import { isEffectivelyDestructive } from "@/lib/docs/annotations";
import { liveLinks } from "@/lib/docs/links";
import { nextRequestId } from "@/lib/editor/templates";
import { groupTools, searchTools, toolCallText, type ExplorerPrompt } from "@/lib/playground/explorer";
import { Badge } from "@/components/ui/Badge";
import { ExplorerResources } from "./ExplorerResources";
import { ExplorerSkills } from "./ExplorerSkills";
import { ExplorerToolDoc } from "./ExplorerToolDoc";
import { explorerBox, explorerItem, explorerSectionHeading, explorerToggle } from "./explorer-styles";
import type { ToolListInfo } from "../useConnection";
import { useRovingFocus } from "./useRovingFocus";

interface Props {
  /** The server as the page names it (a URL, `builtin:demo`, `stdio:<name>`): for the docs links. */
  server: string;
  tools: Tool[];
  listInfo: ToolListInfo | null;
  connection: ConnectionDescriptor;
  capabilities: Record<string, unknown>;
  headers: UserHeaders;
  /** The editor's text: the next request put there takes the id after its id. */
  currentText: string;
  onChoose: (text: string) => void;
  onConnection: (c: ConnectionDescriptor) => void;
  open: boolean;
  onOpen: (open: boolean) => void;
  /** Bumped on a resources / prompts list_changed. */
  versions: { resources: number; prompts: number };
  /** Opened from a link: list resources and prompts only when asked. */
  deferred?: boolean;
  /** Told the server's prompts once listed (the arguments form fills prompts/get from them). */
  onPrompts?: (prompts: ExplorerPrompt[]) => void;
  /** The server is reached with a sign-in: live docs pages (no credentials) cannot show it, so no links to them. */
  signedIn?: boolean;
}

/** The list's hint badges: smaller than the docs' (a row per tool), same colours. */
const compactBadge = "shrink-0 px-1.5! py-0! text-[0.65rem]! leading-4!";

/** Move the focus between the explorer's entries with ↑/↓ (Home/End: first/last), as in a list box. */
function moveFocus(container: HTMLElement | null, from: Element | null, key: string): boolean {
  if (!container) return false;
  const items = Array.from(container.querySelectorAll<HTMLElement>("[data-explorer-item]"));
  if (items.length === 0) return false;
  const at = from ? items.indexOf(from as HTMLElement) : -1;
  const target =
    key === "Home" ? 0 : key === "End" ? items.length - 1 : key === "ArrowDown" ? Math.min(items.length - 1, at + 1) : Math.max(0, at - 1);
  items[target]?.focus();
  return true;
}

/**
 * The explorer beside the editor: the server's tools (searchable, grouped by namespace, with hint badges and a
 * compact doc of the chosen one), the excluded tools and why, then resources, resource templates and prompts, and
 * the skills of a server that declares them.
 * Choosing an entry (click or Enter) puts its request in the editor.
 */
export function ToolExplorer(props: Props) {
  const { server, tools, listInfo, open, onOpen } = props;
  const [query, setQuery] = useState("");
  const [chosen, setChosen] = useState<string | null>(null);
  const bodyRef = useRef<HTMLDivElement>(null);
  const roving = useRovingFocus(bodyRef);
  const shown = useMemo(() => searchTools(tools, query), [tools, query]);
  const groups = useMemo(() => groupTools(shown), [shown]);
  const links = useMemo(() => liveLinks(server), [server]);
  const excluded = listInfo?.excluded ?? [];
  const nextId = () => nextRequestId(props.currentText);

  const choose = (tool: Tool) => {
    setChosen(tool.name);
    props.onChoose(toolCallText(tool, nextId()));
  };

  const onKeyDown = (e: React.KeyboardEvent) => {
    const fromSearch = (e.target as HTMLElement).dataset.testid === "explorer-search";
    if (fromSearch && e.key !== "ArrowDown") return;
    if (!["ArrowDown", "ArrowUp", "Home", "End"].includes(e.key)) return;
    if (!(e.target as HTMLElement).hasAttribute("data-explorer-item") && !fromSearch) return;
    if (moveFocus(bodyRef.current, fromSearch ? null : (e.target as Element), e.key)) e.preventDefault();
  };

  return (
    <aside aria-label="Explorer" data-testid="explorer" data-open={open} className={explorerBox(open)}>
      <button
        type="button"
        onClick={() => onOpen(!open)}
        aria-expanded={open}
        aria-controls="playground-explorer"
        data-testid="explorer-toggle"
        className={explorerToggle}
        title={open ? "Hide the explorer" : "Show the explorer: tools, resources and prompts of the server"}
      >
        <span aria-hidden className="text-xs">
          {open ? "▾" : "▸"}
        </span>
        Explore
        <span className="ml-auto text-xs text-zinc-600 dark:text-zinc-400">{tools.length} tools</span>
      </button>
      {open && (
        <div
          id="playground-explorer"
          ref={bodyRef}
          onKeyDown={onKeyDown}
          onFocus={roving.onFocus}
          className="mt-2 max-h-[45vh] overflow-y-auto pr-1 min-[900px]:max-h-[44rem]"
        >
          <input
            type="search"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            placeholder="Search tools (name, title, description)"
            aria-label="Search tools"
            data-testid="explorer-search"
            className="w-full rounded-md border border-zinc-300 bg-white px-2 py-1 text-sm focus-visible:outline-2 focus-visible:outline-accent-600 dark:border-zinc-700 dark:bg-zinc-900"
          />
          <p className="sr-only" role="status" aria-live="polite">
            {query ? `${shown.length} of ${tools.length} tools match.` : ""}
          </p>
          <section aria-label="Tools" className="mt-2" data-testid="explorer-tools">
            <h3 className={explorerSectionHeading}>Tools ({query ? `${shown.length} of ${tools.length}` : tools.length})</h3>
            {shown.length === 0 && (
              <p className="px-1 text-xs text-zinc-600 dark:text-zinc-400" data-testid="explorer-no-match">
                No tool matches “{query}”. Try fewer or other words.
              </p>
            )}
            {groups.map((g) => (
              <div key={g.label ?? "all"} role="group" aria-label={g.label ?? "Tools"}>
                {g.label !== null && (
                  <p className="mt-1.5 px-1 font-mono text-[0.7rem] text-zinc-600 dark:text-zinc-400" data-testid="explorer-group">
                    {g.label}
                  </p>
                )}
                <ul>
                  {g.tools.map((t) => {
                    const isChosen = chosen === t.name;
                    const readOnly = t.annotations?.readOnlyHint === true;
                    return (
                      <li key={t.name}>
                        <button
                          type="button"
                          className={explorerItem}
                          aria-current={isChosen}
                          onClick={() => choose(t)}
                          data-testid="explorer-tool"
                          data-tool={t.name}
                          data-explorer-item
                          title={typeof t.description === "string" ? t.description.slice(0, 300) : t.name}
                        >
                          <span className="flex min-w-0 items-center gap-1">
                            <span className="min-w-0 truncate font-mono text-xs">{t.name}</span>
                            {readOnly && (
                              <Badge tone="success" className={compactBadge}>
                                read-only
                              </Badge>
                            )}
                            {isEffectivelyDestructive(t) && (
                              <Badge
                                tone="danger"
                                variant={t.annotations?.destructiveHint === true ? "solid" : "dashed"}
                                className={compactBadge}
                              >
                                destructive
                              </Badge>
                            )}
                          </span>
                          {typeof t.title === "string" && t.title && (
                            <span className="block truncate text-[0.7rem] text-zinc-600 dark:text-zinc-400">{t.title}</span>
                          )}
                        </button>
                        {isChosen && (
                          <ExplorerToolDoc tool={t} listInfo={listInfo} docsHref={props.signedIn ? undefined : links.toolPage(t.name)} />
                        )}
                      </li>
                    );
                  })}
                </ul>
              </div>
            ))}
          </section>
          {excluded.length > 0 && (
            <section aria-label="Excluded tools" className="mt-3" data-testid="explorer-excluded">
              <h3 className={explorerSectionHeading}>Excluded ({excluded.length})</h3>
              <p className="px-1 text-xs text-zinc-600 dark:text-zinc-400">Toolscope refuses to call these:</p>
              <ul className="mt-1 space-y-1">
                {excluded.map(({ tool, reason }) => (
                  <li key={tool.name} className="rounded border border-amber-300 px-1.5 py-1 text-xs dark:border-amber-800">
                    <code className="font-semibold break-all">{tool.name}</code>
                    <p className="text-amber-900 dark:text-amber-300">{reason}</p>
                  </li>
                ))}
              </ul>
            </section>
          )}
          <ExplorerResources
            connection={props.connection}
            capabilities={props.capabilities}
            headers={props.headers}
            nextId={nextId}
            onChoose={props.onChoose}
            onConnection={props.onConnection}
            versions={props.versions}
            onPrompts={props.onPrompts}
            // Only a share link waits: on a legacy session the lists load at once too, since a server request during a
            // list call is now answered as an unattended client answers it (issue 26: a "Load" button and a puzzle).
            deferred={props.deferred ? "This page came from a share link: nothing is sent to the server until you choose Load." : undefined}
          />
          {/* Closed until opened, share link or not: opening the group is the request to list. */}
          <ExplorerSkills
            key={server}
            connection={props.connection}
            capabilities={props.capabilities}
            headers={props.headers}
            onConnection={props.onConnection}
          />
        </div>
      )}
    </aside>
  );
}
