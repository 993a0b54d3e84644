"use client";

import { useCallback, useEffect, useId, useRef, useState } from "react";
import type { ConnectionDescriptor, ProxyErrorBody, UserHeaders } from "@/lib/mcp/contract";
import type { SkillEntry, SkillsListResponse } from "@/lib/mcp/skills-contract";
import { ApiError } from "@/lib/client/api-client";
import { skillsSession } from "@/lib/client/skills-session";
import { lintSkills, type SkillsLint } from "@/lib/docs/skills/skill-lints";
import { declaresSkills, manifestTotals } from "@/lib/docs/skills/skill-facts";
import { Badge } from "@/components/ui/Badge";
import { SkillView } from "@/components/ui/skills/SkillView";
import { Modal } from "../Modal";
import { explorerItem, explorerSectionHeading } from "./explorer-styles";

interface Props {
  connection: ConnectionDescriptor;
  /** What the server declared (server.capabilities from connect): the group shows only when it declares skills. */
  capabilities: Record<string, unknown>;
  headers: UserHeaders;
  /** A replacement descriptor the proxy handed back (a new legacy session). */
  onConnection: (c: ConnectionDescriptor) => void;
}

type Listing =
  { state: "loading" } | { state: "done"; list: SkillsListResponse; lint: SkillsLint } | { state: "error"; error: ProxyErrorBody["error"] };

const compactBadge = "shrink-0 px-1.5! py-0! text-[0.65rem]! leading-4!";

function errorOf(err: unknown): ProxyErrorBody["error"] {
  return err instanceof ApiError ? err.body : { kind: "internal", message: (err as Error).message };
}

/**
 * The explorer's Skills group, for a server that declares the skills extension (SEP-2640): closed at first, listed
 * with skills/list when opened (which reads no file). Choosing a skill opens it in a dialog, where each file is read
 * and verified against the manifest only when asked for, with the user's headers, as every playground request.
 */
export function ExplorerSkills({ connection, capabilities, headers, onConnection }: Props) {
  const [open, setOpen] = useState(false);
  const [listing, setListing] = useState<Listing>();
  const [refreshes, setRefreshes] = useState(0);
  const [chosen, setChosen] = useState<SkillEntry | null>(null);
  const bodyId = useId();
  // The latest descriptor: a call may replace it (a renewed legacy session), and the next one must use it.
  const latest = useRef({ connection, onConnection });
  useEffect(() => {
    latest.current = { connection, onConnection };
  });
  // Made when a request goes out, so that it reads the descriptor of that moment.
  const session = useCallback(
    () =>
      skillsSession({
        connect: async () => ({ connection: latest.current.connection, capabilities }),
        headers,
        onConnection: (c) => latest.current.onConnection(c),
      }),
    [capabilities, headers],
  );

  useEffect(() => {
    if (!open) return;
    const abort = new AbortController();
    session()
      .list(abort.signal)
      .then(
        (list) => setListing({ state: "done", list, lint: lintSkills(list.skills, list.invalid) }),
        (err: unknown) => {
          if (!abort.signal.aborted) setListing({ state: "error", error: errorOf(err) });
        },
      );
    return () => abort.abort();
  }, [open, session, refreshes]);

  if (!declaresSkills(capabilities)) return null;
  const done = listing?.state === "done" ? listing : undefined;
  const findingsOf = (uri: string) => done?.lint.findings.filter((f) => f.skill === uri) ?? [];
  return (
    <section aria-label="Skills" className="mt-3" data-testid="explorer-skills">
      <div className="flex items-center gap-2">
        <button
          type="button"
          onClick={() => {
            if (!open) setListing({ state: "loading" });
            setOpen(!open);
          }}
          aria-expanded={open}
          aria-controls={bodyId}
          data-testid="explorer-skills-toggle"
          className={`${explorerSectionHeading} flex items-center gap-1 rounded py-0.5 hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-accent-600 dark:hover:bg-zinc-800`}
          title={open ? "Hide the skills" : "List the server's skills (skills/list: reads no file)"}
        >
          <span aria-hidden>{open ? "▾" : "▸"}</span>
          Skills{done ? ` (${done.list.skills.length})` : ""}
        </button>
        {open && (
          <button
            type="button"
            onClick={() => {
              setListing({ state: "loading" });
              setRefreshes((n) => n + 1);
            }}
            disabled={listing?.state === "loading"}
            className="ml-auto rounded-md border border-zinc-300 px-2 py-0.5 text-xs hover:bg-zinc-50 focus-visible:outline-2 focus-visible:outline-accent-600 disabled:opacity-60 dark:border-zinc-700 dark:hover:bg-zinc-900"
            data-testid="explorer-skills-refresh"
          >
            {listing?.state === "loading" ? "Loading…" : "Refresh"}
          </button>
        )}
      </div>
      {open && (
        <div id={bodyId}>
          {listing?.state === "loading" && <p className="px-1 text-xs text-zinc-600 dark:text-zinc-400">Loading skills/list…</p>}
          {listing?.state === "error" && (
            <p role="alert" className="px-1 text-xs text-red-700 dark:text-red-400" data-testid="explorer-skills-error">
              {listing.error.message}
              {listing.error.hint ? ` ${listing.error.hint}` : ""}
            </p>
          )}
          {done && (
            <>
              {done.list.warnings.map((w, i) => (
                <p key={i} className="px-1 text-xs text-amber-800 dark:text-amber-300">
                  {w}
                </p>
              ))}
              {done.list.invalid.length > 0 && (
                <p className="px-1 text-xs text-amber-800 dark:text-amber-300">
                  {done.list.invalid.length} entr{done.list.invalid.length === 1 ? "y" : "ies"} left out as invalid (their reasons are on
                  the docs page).
                </p>
              )}
              {done.list.skills.length === 0 && <p className="px-1 text-xs text-zinc-600 dark:text-zinc-400">None.</p>}
              <ul>
                {done.list.skills.map((skill) => {
                  const totals = manifestTotals(skill);
                  const errors = findingsOf(skill.uri).filter((f) => f.severity === "error").length;
                  return (
                    <li key={skill.uri}>
                      <button
                        type="button"
                        className={explorerItem}
                        aria-current={chosen?.uri === skill.uri}
                        aria-haspopup="dialog"
                        title={skill.frontmatter.description}
                        onClick={() => setChosen(skill)}
                        data-testid="explorer-skill"
                        data-skill={skill.frontmatter.name}
                        data-explorer-item
                      >
                        <span className="flex min-w-0 items-center gap-1">
                          <span className="min-w-0 truncate font-mono text-xs">{skill.frontmatter.name}</span>
                          {totals ? (
                            <span className="shrink-0 text-[0.65rem] text-zinc-600 dark:text-zinc-400">
                              {totals.files} file{totals.files === 1 ? "" : "s"}
                            </span>
                          ) : (
                            <Badge tone="warning" className={compactBadge}>
                              dynamic
                            </Badge>
                          )}
                          {errors > 0 && (
                            <Badge tone="danger" variant="solid" className={compactBadge}>
                              {errors} error{errors === 1 ? "" : "s"}
                            </Badge>
                          )}
                        </span>
                        <span className="block truncate text-[0.7rem] text-zinc-600 dark:text-zinc-400">
                          {skill.frontmatter.description}
                        </span>
                      </button>
                    </li>
                  );
                })}
              </ul>
            </>
          )}
        </div>
      )}
      {chosen && (
        <Modal
          title={`Skill: ${chosen.frontmatter.name}`}
          onClose={() => setChosen(null)}
          testId="skill-dialog"
          widthClass="w-[min(52rem,calc(100vw-2rem))]"
        >
          <SkillView entry={chosen} findings={findingsOf(chosen.uri)} read={(file) => session().read(chosen, file)} />
        </Modal>
      )}
    </section>
  );
}
