"use client";

import { useEffect, useMemo, useState } from "react";
import type { ProxyErrorBody } from "@/lib/mcp/contract";
import type { SkillEntry } from "@/lib/mcp/skills-contract";
import { ApiError } from "@/lib/client/api-client";
import { publicConnection, skillsSession } from "@/lib/client/skills-session";
import { lintSkill } from "@/lib/docs/skills/skill-lints";
import { ProxyErrorBanner } from "@/components/ui/ProxyErrorBanner";
import { SkillView } from "@/components/ui/skills/SkillView";

type Got = { state: "loading" } | { state: "done"; entry: SkillEntry } | { state: "error"; error: ProxyErrorBody["error"] };

interface Props {
  /** The server the page documents (a URL or builtin id). */
  server: string;
  /** The skill's SKILL.md URI: skills are told apart by URI, their names need not be unique. */
  uri: string;
  /** The server's docs page, for the way back to its skills. */
  serverPage: string;
  serverName: string;
}

/**
 * One skill of a live server: its entry from skills/get (which reads no file), then the view where each file is read
 * and verified only when asked for. Connected like the rest of the docs: without credentials.
 */
export function SkillPage({ server, uri, serverPage, serverName }: Props) {
  const session = useMemo(() => skillsSession(publicConnection(server)), [server]);
  const [got, setGot] = useState<Got>({ state: "loading" });

  useEffect(() => {
    const abort = new AbortController();
    session.get(uri, abort.signal).then(
      (answer) => setGot({ state: "done", entry: answer.skill }),
      (err: unknown) => {
        if (abort.signal.aborted) return;
        setGot({ state: "error", error: err instanceof ApiError ? err.body : { kind: "internal", message: (err as Error).message } });
      },
    );
    return () => abort.abort();
  }, [session, uri]);

  const findings = useMemo(() => (got.state === "done" ? lintSkill(got.entry) : []), [got]);
  return (
    <article className="min-w-0" data-testid="skill-page" data-state={got.state}>
      <p className="text-sm">
        <a href={`${serverPage}#skills`} className="text-accent-700 underline dark:text-accent-100">
          ← Skills of {serverName}
        </a>
      </p>
      <h1 className="mt-2 break-all font-mono text-2xl font-semibold tracking-tight">
        {got.state === "done" ? got.entry.frontmatter.name : "Skill"}
      </h1>
      <p className="mt-0.5 text-xs text-zinc-600 dark:text-zinc-400">A skill (SEP-2640) as the server&apos;s entry describes it.</p>
      <div className="mt-4">
        {got.state === "loading" && (
          <p role="status" className="text-sm text-zinc-600 dark:text-zinc-400">
            Getting the skill&apos;s entry (skills/get: no file is read)…
          </p>
        )}
        {got.state === "error" && <ProxyErrorBanner error={got.error} />}
        {got.state === "done" && (
          <SkillView entry={got.entry} findings={findings} read={(file) => session.read(got.entry, file)} headingLevel="h2" />
        )}
      </div>
    </article>
  );
}
