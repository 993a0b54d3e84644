/**
 * The demo's skills (SEP-2640), served through the SDK's SkillsExtension from a source of our own: two skills whose
 * files are fixed (published with digests and sizes, built by the SDK's `skillEntry`), and one whose SKILL.md is
 * generated from the tracker when read, so its `resources` is "dynamic". A catalog loaded from storage
 * (`SkillCatalog.load`) could serve the fixed two, but one server takes one skills extension, and the generated skill
 * needs a source. Directory reads are served too (`directoryRead: true`). Nothing goes into resources/list: skills
 * are found through skills/list.
 */
import { type McpServer, type Resource } from "@modelcontextprotocol/server";
import { SkillsExtension, skillEntry, type Skill, type SkillSource } from "@modelcontextprotocol/server/ext/skills";
import { listIssues } from "./issue-store.ts";
import { STATUS_FRONTMATTER, SQL_REPORTING_FILES, TRIAGE_FILES, weeklyStatusMarkdown } from "./skills-content.ts";
import { lazy } from "./tool-kit.ts";

/** Every skill URI starts here: `skill://demo/<name>/…`. */
export const DEMO_SKILLS_ROOT = "skill://demo/";

const STATUS_SKILL = `${DEMO_SKILLS_ROOT}${STATUS_FRONTMATTER.name}/SKILL.md`;

/** The fixed skills' folders under the root, and their files. */
const FIXED: Record<string, Record<string, string>> = { "triage-issues": TRIAGE_FILES, "sql-reporting": SQL_REPORTING_FILES };

/** Code-point order: the same on every machine, whatever its locale. */
const byUri = (a: { uri: string }, b: { uri: string }) => (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0);

interface Published {
  entries: Skill[];
  /** Every fixed file by URI. */
  files: Map<string, string>;
}

/** Built once per process: digests are computed from the files, so the entries cannot drift from them. */
const published = lazy(async (): Promise<Published> => {
  const files = new Map<string, string>();
  const entries: Skill[] = [];
  for (const [name, record] of Object.entries(FIXED)) {
    entries.push(await skillEntry(`demo/${name}`, record));
    for (const [path, text] of Object.entries(record)) files.set(`${DEMO_SKILLS_ROOT}${name}/${path}`, text);
  }
  entries.push({ uri: STATUS_SKILL, frontmatter: { ...STATUS_FRONTMATTER }, resources: "dynamic" });
  return { entries: entries.sort(byUri), files };
});

function statusMarkdown(now: () => number): string {
  const issues = listIssues();
  const count = (status: string) => issues.filter((i) => i.status === status).length;
  return weeklyStatusMarkdown(
    { open: count("open"), inProgress: count("in_progress"), closed: count("closed") },
    new Date(now()).toISOString(),
  );
}

/** Direct children of a folder among `uris`: files by name, folders as `inode/directory`; undefined when it has none. */
function childrenOf(uris: Iterable<string>, folder: string): Resource[] | undefined {
  const prefix = `${folder.replace(/\/+$/, "")}/`;
  const found = new Map<string, Resource>();
  for (const uri of uris) {
    if (!uri.startsWith(prefix)) continue;
    const [name, ...deeper] = uri.slice(prefix.length).split("/");
    const child = `${prefix}${name}`;
    found.set(child, deeper.length ? { uri: child, name, mimeType: "inode/directory" } : { uri: child, name, mimeType: mimeTypeOf(child) });
  }
  return found.size ? [...found.values()].sort(byUri) : undefined;
}

function mimeTypeOf(uri: string): string {
  return uri.endsWith(".md") ? "text/markdown" : "text/plain";
}

function demoSkillSource(now: () => number): SkillSource {
  return {
    // A handful of skills: one page.
    async list() {
      return { skills: (await published()).entries };
    },
    async get(uri) {
      return (await published()).entries.find((e) => e.uri === uri);
    },
    async read(uri) {
      if (uri === STATUS_SKILL) return { text: statusMarkdown(now), mimeType: "text/markdown" };
      const text = (await published()).files.get(uri);
      return text === undefined ? undefined : { text, mimeType: mimeTypeOf(uri) };
    },
    async readDirectory(uri) {
      const resources = childrenOf([...(await published()).files.keys(), STATUS_SKILL], uri);
      return resources && { resources };
    },
  };
}

/**
 * Serve the demo's skills on one server (the demo builds one per modern request, one per legacy session). The
 * extension holds no state of its own and the files are built once per process, so a new one per server costs nothing.
 * Skills are cacheable for a minute by anyone: they are the same for every caller.
 */
export function attachDemoSkills(server: McpServer, now: () => number): void {
  new SkillsExtension({
    source: demoSkillSource(now),
    baseUri: DEMO_SKILLS_ROOT,
    cacheHint: { ttlMs: 60_000, cacheScope: "public" },
  }).attach(server);
}
