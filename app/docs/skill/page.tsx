import type { Metadata } from "next";
import { DocsShell } from "@/components/docs/DocsShell";
import { StaleDocsBanner } from "@/components/docs/StaleDocsBanner";
import { ToolSidebar } from "@/components/docs/ToolSidebar";
import { sidebarProps } from "@/components/docs/sidebar-props";
import { SkillPage } from "@/components/docs/skills/SkillPage";
import { liveLinks } from "@/lib/docs/links";
import { declaresSkills } from "@/lib/docs/skills/skill-facts";
import { loadDocsPage, type DocsSearch } from "../docs-page";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Skill" };

/**
 * One skill of one server (`?server=<url>&uri=<SKILL.md URI>`): by URI, since skill names need not be unique. The page
 * is the docs' (sidebar, stale banner); the skill itself is got and read in the browser, a file only when asked for.
 */
export default async function SkillDocsPage({ searchParams }: { searchParams: DocsSearch }) {
  const sp = await searchParams;
  const uri = typeof sp.uri === "string" ? sp.uri : "";
  const load = await loadDocsPage(sp);
  if (!load.ok) return load.page;
  const { snap, url } = load;
  const links = liveLinks(url);
  const serverName = snap.server.serverInfo?.title ?? snap.server.serverInfo?.name ?? url;
  const problem = !declaresSkills(snap.server.capabilities)
    ? `${serverName} does not declare the skills extension (SEP-2640): it offers no skills to read.`
    : !uri
      ? "No skill named: a skill's page is /docs/skill?server=…&uri=<the URI of its SKILL.md>."
      : undefined;
  return (
    <DocsShell sidebar={<ToolSidebar {...sidebarProps(snap.list, links)} />}>
      {snap.stale && <StaleDocsBanner fetchedAt={snap.stale.fetchedAt} reason={snap.stale.error.message} />}
      {problem ? (
        <div>
          <h1 className="text-2xl font-semibold">No skill to show</h1>
          <p className="mt-2 text-sm" data-testid="skill-page-problem">
            {problem}{" "}
            <a href={links.serverPage} className="text-accent-700 underline dark:text-accent-100">
              Back to the server&apos;s docs
            </a>
            .
          </p>
        </div>
      ) : (
        <SkillPage server={url} uri={uri} serverPage={links.serverPage} serverName={serverName} />
      )}
    </DocsShell>
  );
}
