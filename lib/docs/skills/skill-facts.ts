/**
 * What the docs and the playground say about a skill (SEP-2640) from its entry alone: whether a server declares the
 * extension, the skill's folder, a file's path inside it, the manifest's totals, and how sizes and digests are
 * written. Nothing here reads a file: an entry is what skills/list and skills/get return.
 */
import { isObject } from "../../json/guards.ts";
import { SKILLS_EXTENSION, type SkillEntry, type SkillFileEntry } from "../../mcp/skills-contract.ts";

/** The server declared the skills extension (`capabilities.extensions["io.modelcontextprotocol/skills"]`). */
export function declaresSkills(capabilities: unknown): boolean {
  return isObject(capabilities) && isObject(capabilities.extensions) && isObject(capabilities.extensions[SKILLS_EXTENSION]);
}

const SKILL_MD = "SKILL.md";

/** The skill's folder URI with its trailing slash (`skill://acme/refunds/`), or undefined when `uri` names no SKILL.md. */
export function skillFolder(uri: string): string | undefined {
  if (!uri.endsWith(`/${SKILL_MD}`)) return undefined;
  const folder = uri.slice(0, -SKILL_MD.length);
  // A SKILL.md straight under the scheme (`skill:///SKILL.md`) is in no named folder.
  return /^[a-z][a-z0-9+.-]*:\/*$/i.test(folder) ? undefined : folder;
}

/**
 * The last segment of the skill's folder: what its frontmatter `name` must equal. URI escapes are decoded, as a
 * server that percent-encodes a name still means the name.
 */
export function folderName(uri: string): string | undefined {
  const folder = skillFolder(uri);
  if (!folder) return undefined;
  const segment = folder.slice(0, -1).split("/").pop() ?? "";
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** A file's path under the skill's folder (`references/FORMS.md`), or its whole URI when it is not under it. */
export function pathInSkill(skillUri: string, fileUri: string): string {
  const folder = skillFolder(skillUri);
  return folder && fileUri.startsWith(folder) && fileUri.length > folder.length ? fileUri.slice(folder.length) : fileUri;
}

export interface ManifestTotals {
  files: number;
  /** The sizes added up, as the entry states them (invalid sizes count as 0). */
  bytes: number;
}

/** How many files the manifest lists and how many bytes they add up to; undefined for a "dynamic" skill. */
export function manifestTotals(entry: Pick<SkillEntry, "resources">): ManifestTotals | undefined {
  if (!Array.isArray(entry.resources)) return undefined;
  const bytes = entry.resources.reduce((sum, f) => sum + (Number.isSafeInteger(f?.size) && f.size > 0 ? f.size : 0), 0);
  return { files: entry.resources.length, bytes };
}

/** The manifest's files with SKILL.md first, then by path: the order a person reads a skill in. */
export function manifestFiles(entry: SkillEntry): SkillFileEntry[] {
  if (!Array.isArray(entry.resources)) return [];
  const path = (f: SkillFileEntry) => pathInSkill(entry.uri, f.uri);
  return [...entry.resources].sort((a, b) => {
    if (a.uri === entry.uri || b.uri === entry.uri) return a.uri === entry.uri ? -1 : 1;
    const [pa, pb] = [path(a), path(b)];
    return pa < pb ? -1 : pa > pb ? 1 : 0;
  });
}

/** "1 byte", "1,234 bytes": exact, with the separators of the rest of the UI. */
export function bytesText(bytes: number): string {
  return `${bytes.toLocaleString("en-US")} byte${bytes === 1 ? "" : "s"}`;
}

/** Beside an exact count, a rounded one for sizes a person cannot read at a glance ("4.0 KiB"); "" below 10 KiB. */
export function roundedBytes(bytes: number): string {
  if (bytes < 10 * 1024) return "";
  const [unit, div] = bytes >= 1024 * 1024 ? ["MiB", 1024 * 1024] : ["KiB", 1024];
  return `${(bytes / div).toFixed(1)} ${unit}`;
}

/** `sha256:ab12cd34…`: enough to tell digests apart on screen; the whole one goes in a title or a copy. */
export function shortDigest(digest: string): string {
  const m = /^(sha256:)([0-9a-f]{64})$/.exec(digest);
  return m ? `${m[1]}${m[2].slice(0, 12)}…` : digest.length > 24 ? `${digest.slice(0, 24)}…` : digest;
}

/** A file shown as Markdown: its MIME type says so, or (a server that sent none) its name does. */
export function isMarkdownFile(uri: string, mimeType?: string): boolean {
  if (mimeType) return /^text\/(markdown|x-markdown)\b/i.test(mimeType);
  return /\.(md|markdown)$/i.test(uri.split(/[?#]/)[0]);
}

/** The frontmatter fields besides `name` and `description` (license, allowed-tools, metadata…), in the server's order. */
export function extraFrontmatter(frontmatter: SkillEntry["frontmatter"]): [string, unknown][] {
  return Object.entries(frontmatter).filter(([key]) => key !== "name" && key !== "description");
}

/** A frontmatter value as one line of text: strings as they are, anything else as JSON. */
export function fieldText(value: unknown): string {
  return typeof value === "string" ? value : (JSON.stringify(value) ?? String(value));
}

/** The docs page of one skill of a live server; skills are told apart by URI, since names need not be unique. */
export function skillHref(server: string, uri: string): string {
  return `/docs/skill?server=${encodeURIComponent(server)}&uri=${encodeURIComponent(uri)}`;
}
