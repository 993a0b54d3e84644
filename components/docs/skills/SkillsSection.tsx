"use client";

import { useEffect, useMemo, useState } from "react";
import type { ProxyErrorBody } from "@/lib/mcp/contract";
import type { SkillsListResponse } from "@/lib/mcp/skills-contract";
import { ApiError } from "@/lib/client/api-client";
import { publicConnection, skillsSession } from "@/lib/client/skills-session";
import { lintSkills, type SkillsLint } from "@/lib/docs/skills/skill-lints";
import { skillHref } from "@/lib/docs/skills/skill-facts";
import { Badge } from "@/components/ui/Badge";
import { ProxyErrorBanner } from "@/components/ui/ProxyErrorBanner";
import { SkillFacts } from "@/components/ui/skills/SkillFacts";
import { SkillFindings } from "@/components/ui/skills/SkillFindings";

type Listing =
  { state: "loading" } | { state: "done"; list: SkillsListResponse; lint: SkillsLint } | { state: "error"; error: ProxyErrorBody["error"] };

const note = "text-sm text-zinc-600 dark:text-zinc-400";

/**
 * The Skills section of a live docs page: the server's skills from skills/list, fetched when the page loads (listing
 * reads no file), each with its frontmatter, its manifest's size and its lints, and a link to its own page where
 * files are read only when asked for. Connected like Try it: without credentials, nobody to answer the server.
 */
export function SkillsSection({ server }: { server: string }) {
  const session = useMemo(() => skillsSession(publicConnection(server)), [server]);
  const [listing, setListing] = useState<Listing>({ state: "loading" });

  useEffect(() => {
    const abort = new AbortController();
    session.list(abort.signal).then(
      (list) => setListing({ state: "done", list, lint: lintSkills(list.skills, list.invalid) }),
      (err: unknown) => {
        if (abort.signal.aborted) return;
        setListing({ state: "error", error: err instanceof ApiError ? err.body : { kind: "internal", message: (err as Error).message } });
      },
    );
    return () => abort.abort();
  }, [session]);

  const listed = listing.state === "done" ? new Set(listing.list.skills.map((s) => s.uri)) : new Set<string>();
  // Findings about no listed skill: the entries the client core set aside as invalid.
  const unlisted = listing.state === "done" ? listing.lint.findings.filter((f) => !f.skill || !listed.has(f.skill)) : [];
  return (
    <section id="skills" className="mt-8 scroll-mt-4" aria-labelledby="skills-heading" data-testid="docs-skills" data-state={listing.state}>
      <div className="flex flex-wrap items-center gap-2">
        <h2 id="skills-heading" className="text-xl font-semibold">
          Skills
        </h2>
        {listing.state === "done" && (
          <Badge testId="skills-count">
            {listing.list.skills.length} skill{listing.list.skills.length === 1 ? "" : "s"}
          </Badge>
        )}
        {listing.state === "done" && listing.lint.summary.error > 0 && (
          <Badge tone="danger" variant="solid">
            {listing.lint.summary.error} error{listing.lint.summary.error === 1 ? "" : "s"}
          </Badge>
        )}
        {listing.state === "done" && listing.lint.summary.warning > 0 && (
          <Badge tone="warning" variant="solid">
            {listing.lint.summary.warning} warning{listing.lint.summary.warning === 1 ? "" : "s"}
          </Badge>
        )}
      </div>
      <p className={`mt-1 ${note}`}>
        Instructions the server offers agents (the skills extension, SEP-2640), listed with skills/list, which reads no file. A skill&apos;s
        page reads a file only when you ask for it, and shows it only once it matches the manifest.
      </p>
      {listing.state === "loading" && (
        <p className={`mt-3 ${note}`} role="status">
          Listing skills…
        </p>
      )}
      {listing.state === "error" && (
        <div className="mt-3">
          <ProxyErrorBanner error={listing.error} />
        </div>
      )}
      {listing.state === "done" && (
        <div className="mt-3 space-y-3">
          {listing.list.warnings.map((w, i) => (
            <p key={i} className="text-sm text-amber-800 dark:text-amber-300" data-testid="skills-warning">
              {w}
            </p>
          ))}
          {listing.list.skills.length === 0 && listing.list.invalid.length === 0 && <p className={note}>The server lists no skills.</p>}
          <ul className="grid gap-3" data-testid="skills-list">
            {listing.list.skills.map((skill) => (
              <li
                key={skill.uri}
                className="min-w-0 rounded-lg border border-zinc-200 p-3 dark:border-zinc-800"
                data-testid="docs-skill"
                data-skill={skill.frontmatter.name}
              >
                <h3 className="text-base font-semibold">
                  <a href={skillHref(server, skill.uri)} className="break-all font-mono text-accent-700 underline dark:text-accent-100">
                    {skill.frontmatter.name}
                  </a>
                </h3>
                <p className="mt-1 break-words text-sm">{skill.frontmatter.description}</p>
                <div className="mt-2">
                  <SkillFacts entry={skill} />
                </div>
                <div className="mt-2">
                  <SkillFindings findings={listing.lint.findings.filter((f) => f.skill === skill.uri)} />
                </div>
              </li>
            ))}
          </ul>
          {unlisted.length > 0 && (
            <div data-testid="skills-invalid">
              <h3 className="text-sm font-semibold">Entries not offered</h3>
              <div className="mt-1">
                <SkillFindings findings={unlisted} />
              </div>
            </div>
          )}
        </div>
      )}
    </section>
  );
}
