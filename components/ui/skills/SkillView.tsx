"use client";

import { useId, useState } from "react";
import type { SkillEntry, SkillsReadResponse } from "@/lib/mcp/skills-contract";
import type { SkillFinding } from "@/lib/docs/skills/skill-lints";
import { ApiError } from "@/lib/client/api-client";
import { bytesText, manifestFiles, pathInSkill, shortDigest } from "@/lib/docs/skills/skill-facts";
import { SkillFacts } from "./SkillFacts";
import { SkillFileContent, type SkillFileState } from "./SkillFileContent";
import { SkillFindings } from "./SkillFindings";

export interface SkillViewProps {
  entry: SkillEntry;
  /** The skill's lint findings (lintSkill, or its share of lintSkills). */
  findings: SkillFinding[];
  /** Reads one file (SKILL.md when `file` is undefined) through POST /api/skills; rejects when Toolscope could not ask. */
  read: (file: string | undefined) => Promise<SkillsReadResponse>;
  /** The Files heading's level: h2 on a page whose h1 is the skill, h3 in a dialog titled by an h2. Default h3. */
  headingLevel?: "h2" | "h3";
}

interface Row {
  uri: string;
  path: string;
  size?: number;
  digest?: string;
}

const loadButton =
  "shrink-0 rounded-md border border-zinc-300 px-2.5 py-0.5 text-sm hover:bg-zinc-50 focus-visible:outline-2 focus-visible:outline-accent-600 disabled:cursor-not-allowed disabled:opacity-60 dark:border-zinc-700 dark:hover:bg-zinc-800";

/**
 * One skill: its description, frontmatter and manifest, its lints, and its files. Nothing is read until the person
 * chooses Load for a file; what comes back is shown only when it passed the checks (size and SHA-256 against the
 * manifest; for SKILL.md its frontmatter against the entry), else the refusal names the file and why. Once SKILL.md is
 * refused the skill is not loaded, so its other files are not read either.
 */
export function SkillView({ entry, findings, read, headingLevel = "h3" }: SkillViewProps) {
  const Heading = headingLevel;
  const [reads, setReads] = useState<Record<string, SkillFileState>>({});
  const baseId = useId();
  const rows: Row[] =
    entry.resources === "dynamic"
      ? [{ uri: entry.uri, path: "SKILL.md" }]
      : manifestFiles(entry).map((f) => ({ uri: f.uri, path: pathInSkill(entry.uri, f.uri), size: f.size, digest: f.digest }));
  const skillMdRefused = reads[entry.uri]?.state === "refused";

  const load = async (row: Row) => {
    setReads((r) => ({ ...r, [row.uri]: { state: "loading" } }));
    let next: SkillFileState;
    try {
      const answer = await read(row.uri === entry.uri ? undefined : row.uri);
      next = answer.refused ? { state: "refused", refused: answer.refused } : { state: "file", file: answer.file! };
    } catch (err) {
      next = { state: "error", error: err instanceof ApiError ? err.body : { kind: "internal", message: (err as Error).message } };
    }
    setReads((r) => ({ ...r, [row.uri]: next }));
  };

  return (
    <div className="min-w-0 space-y-4" data-testid="skill-view" data-skill-uri={entry.uri}>
      <p className="break-words text-sm" data-testid="skill-description">
        {entry.frontmatter.description}
      </p>
      <SkillFacts entry={entry} />
      <SkillFindings findings={findings} />
      <section aria-labelledby={`${baseId}-files`} className="min-w-0">
        <Heading id={`${baseId}-files`} className={headingLevel === "h2" ? "text-lg font-semibold" : "text-sm font-semibold"}>
          Files
        </Heading>
        <p className="mt-0.5 text-xs text-zinc-600 dark:text-zinc-400">
          {entry.resources === "dynamic"
            ? "Generated when read: the server publishes no sizes or digests, so only SKILL.md's frontmatter can be checked. Nothing is read until you choose Load."
            : "Nothing is read until you choose Load; each file is then checked against the manifest (size and SHA-256) before it is shown."}
        </p>
        <ul className="mt-2 space-y-2">
          {rows.map((row) => {
            const state = reads[row.uri];
            const blocked = skillMdRefused && row.uri !== entry.uri;
            const panel = `${baseId}-file-${rows.indexOf(row)}`;
            return (
              <li
                key={row.uri}
                className="min-w-0 rounded-md border border-zinc-200 p-2 dark:border-zinc-800"
                data-testid="skill-file"
                data-path={row.path}
              >
                <div className="flex min-w-0 flex-wrap items-center gap-x-3 gap-y-1">
                  <code className="min-w-0 break-all font-mono text-sm">{row.path}</code>
                  {row.size !== undefined && <span className="text-xs text-zinc-600 dark:text-zinc-400">{bytesText(row.size)}</span>}
                  {row.digest !== undefined && (
                    <code className="min-w-0 break-all text-xs text-zinc-600 dark:text-zinc-400" title={row.digest}>
                      {shortDigest(row.digest)}
                    </code>
                  )}
                  <button
                    type="button"
                    className={`${loadButton} ml-auto`}
                    onClick={() => void load(row)}
                    disabled={state?.state === "loading" || blocked}
                    aria-label={`${state && state.state !== "loading" ? "Load again" : "Load"} ${row.path}`}
                    aria-controls={state ? panel : undefined}
                    data-testid="skill-file-load"
                  >
                    {state?.state === "loading" ? "Loading…" : state ? "Load again" : "Load"}
                  </button>
                </div>
                {blocked && !state && (
                  <p className="mt-1 text-xs text-zinc-600 dark:text-zinc-400">
                    Not read: SKILL.md was refused, so the skill is not loaded.
                  </p>
                )}
                {state && (
                  <div id={panel} className="mt-2 min-w-0">
                    <SkillFileContent path={row.path} read={state} />
                  </div>
                )}
              </li>
            );
          })}
        </ul>
      </section>
    </div>
  );
}
