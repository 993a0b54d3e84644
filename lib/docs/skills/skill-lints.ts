/**
 * Lints for skill definitions (SEP-2640 entries, with the Agent Skills rules for names and descriptions), from the
 * entries alone: nothing here reads a file. Findings are data, like the tool lints' (lib/docs/lints.ts): id,
 * severity, message, why, fix, and the SKILL.md URI of the skill they are about.
 *
 * The client core's SDK already sets aside listing entries it cannot accept (they arrive in `invalid`, turned into
 * findings here too); the rest are checked again so that a snapshot, the command line or an entry from skills/get
 * gets the same findings, and for what the SDK accepts but a reader should know (a thin description, a dynamic skill,
 * reserved metadata keys, two skills with one name).
 */
import { isObject } from "../../json/guards.ts";
import type { InvalidSkill } from "../../mcp/skills-contract.ts";
import { MIN_DESCRIPTION_CHARS, type LintSummary, type Severity } from "../lints.ts";
import { folderName, skillFolder } from "./skill-facts.ts";

export type SkillLintId =
  | "skill-entry-invalid"
  | "skill-uri-not-skill-md"
  | "skill-name-missing"
  | "skill-name-invalid"
  | "skill-name-folder-mismatch"
  | "skill-name-duplicate"
  | "skill-description-missing"
  | "skill-description-thin"
  | "skill-description-too-long"
  | "skill-resources-invalid"
  | "skill-dynamic"
  | "skill-manifest-no-skill-md"
  | "skill-too-many-files"
  | "skill-too-large"
  | "skill-file-outside"
  | "skill-file-duplicate"
  | "skill-digest-malformed"
  | "skill-size-invalid"
  | "skill-metadata-reserved";

export interface SkillFinding {
  id: SkillLintId;
  severity: Severity;
  /** The SKILL.md URI of the skill it is about (absent when the entry had none). */
  skill?: string;
  message: string;
  why: string;
  fix: string;
}

export interface SkillsLint {
  findings: SkillFinding[];
  summary: LintSummary;
}

/** What the extension asks every host to support per skill; a larger skill may not be loaded anywhere. */
export const SKILL_SPEC_LIMITS = { maxFiles: 512, maxBytes: 16 * 1024 * 1024 } as const;
/** Agent Skills: a name is 1–64 characters. */
export const MAX_SKILL_NAME_CHARS = 64;
/** Agent Skills: a description is 1–1024 characters. */
export const MAX_SKILL_DESCRIPTION_CHARS = 1024;
/** `metadata` keys under this prefix belong to the protocol. */
export const RESERVED_METADATA_PREFIX = "io.modelcontextprotocol/";

/** Lowercase letters and digits in runs joined by single hyphens: no leading, trailing or doubled hyphen. */
const NAME_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const DIGEST_PATTERN = /^sha256:[0-9a-f]{64}$/;

const SEVERITY_ORDER: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

/** Characters as a person counts them (code points), as the Agent Skills limits do. */
const chars = (text: string) => [...text].length;

const quoted = (text: string, max = 80) => JSON.stringify(text.length > max ? `${text.slice(0, max)}…` : text);

type Add = (f: Omit<SkillFinding, "skill">) => void;

function lintName(name: unknown, uri: string, add: Add): void {
  if (typeof name !== "string" || name === "") {
    add({
      id: "skill-name-missing",
      severity: "error",
      message: "The skill's frontmatter has no name.",
      why: "Agent Skills require a name: it is how an agent and a person refer to the skill.",
      fix: "Start SKILL.md with a frontmatter `name:` equal to the skill's folder name, and repeat it in the entry.",
    });
    return;
  }
  if (chars(name) > MAX_SKILL_NAME_CHARS || !NAME_PATTERN.test(name)) {
    const suggestion = name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, MAX_SKILL_NAME_CHARS);
    add({
      id: "skill-name-invalid",
      severity: "error",
      message: `The name ${quoted(name)} is not a valid skill name${chars(name) > MAX_SKILL_NAME_CHARS ? ` (${chars(name)} characters)` : ""}.`,
      why: `Agent Skills names are 1–${MAX_SKILL_NAME_CHARS} lowercase letters, digits and single hyphens, neither first nor last; hosts refuse other names, so the skill is not loaded.`,
      fix: suggestion
        ? `Rename it, e.g. "${suggestion}", and its folder with it.`
        : "Rename it with lowercase letters, digits and hyphens.",
    });
    return;
  }
  const folder = folderName(uri);
  if (folder !== undefined && folder !== name)
    add({
      id: "skill-name-folder-mismatch",
      severity: "error",
      message: `The name ${quoted(name)} differs from the skill's folder ${quoted(folder)} (the last path segment of its URI).`,
      why: "The extension requires the folder the SKILL.md sits in to carry the skill's name; hosts refuse a skill where they differ.",
      fix: `Serve the skill under …/${name}/SKILL.md, or name it "${folder}".`,
    });
}

function lintDescription(description: unknown, add: Add): void {
  const text = typeof description === "string" ? description.trim() : "";
  if (text === "") {
    add({
      id: "skill-description-missing",
      severity: "error",
      message: "The skill has no description.",
      why: "Agent Skills require a description: an agent decides from it alone whether to load the skill.",
      fix: "Say in one or two sentences what the skill does and when to use it.",
    });
    return;
  }
  const length = chars(text);
  if (length > MAX_SKILL_DESCRIPTION_CHARS)
    add({
      id: "skill-description-too-long",
      severity: "error",
      message: `The description is ${length.toLocaleString("en-US")} characters long (the limit is ${MAX_SKILL_DESCRIPTION_CHARS.toLocaleString("en-US")}).`,
      why: "Agent Skills cap descriptions at 1,024 characters; hosts refuse longer ones, and every description sits in the agent's context whether the skill is used or not.",
      fix: "Keep what the skill is for and when to use it; move the how into SKILL.md's body.",
    });
  else if (length < MIN_DESCRIPTION_CHARS)
    add({
      id: "skill-description-thin",
      severity: "warning",
      message: `The description is thin (${length} characters).`,
      why: "An agent chooses a skill by its description before reading anything else; a few words rarely say both what it does and when it applies.",
      fix: "Say what the skill does and when to use it, with the words a user's request would contain.",
    });
}

/** Inside the skill's folder, with no empty, `.` or `..` segment (also once decoded), no query or fragment. */
function isInside(folder: string, uri: string): boolean {
  if (!uri.startsWith(folder) || uri.length === folder.length || /[?#]/.test(uri)) return false;
  return uri
    .slice(folder.length)
    .split("/")
    .every((segment) => {
      let decoded = segment;
      try {
        decoded = decodeURIComponent(segment);
      } catch {
        // A stray % is a name like any other.
      }
      return decoded !== "" && decoded !== "." && decoded !== ".." && !decoded.includes("/");
    });
}

function lintManifest(resources: unknown, uri: string, add: Add): void {
  if (resources === "dynamic") {
    add({
      id: "skill-dynamic",
      severity: "info",
      message: 'A dynamic skill (resources: "dynamic"): its files are generated when read.',
      why: "Its files have no size or digest to check, so a host can verify nothing but SKILL.md's frontmatter: what it reads is whatever the server sends then.",
      fix: "Nothing to fix if the content must be generated. Publish a manifest when the files are fixed, so hosts can verify them.",
    });
    return;
  }
  if (!Array.isArray(resources)) {
    add({
      id: "skill-resources-invalid",
      severity: "error",
      message: 'The entry\'s resources is neither a list of files nor "dynamic".',
      why: "The extension requires resources in every entry; a host must not load a skill without it.",
      fix: 'List every file of the skill ({ uri, size, digest }, SKILL.md included), or say "dynamic" for generated content.',
    });
    return;
  }
  const folder = skillFolder(uri);
  const seen = new Set<string>();
  const outside: string[] = [];
  const badDigests: string[] = [];
  const badSizes: string[] = [];
  const repeated = new Set<string>();
  let total = 0;
  for (const file of resources) {
    const fileUri = isObject(file) && typeof file.uri === "string" ? file.uri : "(no uri)";
    if (seen.has(fileUri)) repeated.add(fileUri);
    seen.add(fileUri);
    if (folder && fileUri !== uri && !isInside(folder, fileUri)) outside.push(fileUri);
    if (!isObject(file) || typeof file.digest !== "string" || !DIGEST_PATTERN.test(file.digest)) badDigests.push(fileUri);
    const size = isObject(file) ? file.size : undefined;
    if (typeof size !== "number" || !Number.isSafeInteger(size) || size < 0) badSizes.push(fileUri);
    else total += size;
  }
  const some = (uris: Iterable<string>) => {
    const all = [...uris];
    return `${all.slice(0, 3).join(", ")}${all.length > 3 ? ` and ${all.length - 3} more` : ""}`;
  };
  if (!seen.has(uri))
    add({
      id: "skill-manifest-no-skill-md",
      severity: "error",
      message: "The manifest does not list the skill's own SKILL.md.",
      why: "A manifest lists every file of the skill, SKILL.md included: a host reads SKILL.md first and verifies it against its line.",
      fix: `Add ${uri} with its size and digest to resources.`,
    });
  if (repeated.size > 0)
    add({
      id: "skill-file-duplicate",
      severity: "error",
      message: `The manifest lists ${some(repeated)} more than once.`,
      why: "Each file is listed once; two lines for one file may disagree, and hosts refuse the entry.",
      fix: "List each file once.",
    });
  if (outside.length > 0)
    add({
      id: "skill-file-outside",
      severity: "error",
      message: `The manifest lists ${outside.length === 1 ? "a file" : `${outside.length} files`} outside the skill's folder ${folder}: ${some(outside)}.`,
      why: "A skill is one folder: a file elsewhere (another skill's, or reached with ..) would let one skill read what it does not own, so hosts refuse the entry.",
      fix: "Move the file under the skill's folder, or leave it out of the manifest.",
    });
  if (badDigests.length > 0)
    add({
      id: "skill-digest-malformed",
      severity: "error",
      message: `${badDigests.length === 1 ? "A digest is" : `${badDigests.length} digests are`} not sha256:<64 lowercase hex digits>: ${some(badDigests)}.`,
      why: "A host checks each file it reads against its digest; one it cannot compare leaves the file unverifiable, and hosts refuse the entry.",
      fix: "Write each digest as sha256: followed by the lowercase hex SHA-256 of the file's raw bytes.",
    });
  if (badSizes.length > 0)
    add({
      id: "skill-size-invalid",
      severity: "error",
      message: `${badSizes.length === 1 ? "A size is" : `${badSizes.length} sizes are`} not a whole number of bytes: ${some(badSizes)}.`,
      why: "A host checks each file's byte length before trusting it, and adds the sizes up against the skill limits.",
      fix: "Give each file's length in bytes as a non-negative integer.",
    });
  if (resources.length > SKILL_SPEC_LIMITS.maxFiles)
    add({
      id: "skill-too-many-files",
      severity: "error",
      message: `The manifest lists ${resources.length.toLocaleString("en-US")} files (the extension's limit is ${SKILL_SPEC_LIMITS.maxFiles}).`,
      why: "Hosts must support skills of up to 512 files; a larger one may be refused by any of them.",
      fix: "Split the skill, or move rarely needed material into fewer, larger files.",
    });
  if (total > SKILL_SPEC_LIMITS.maxBytes)
    add({
      id: "skill-too-large",
      severity: "error",
      message: `The skill's files add up to ${total.toLocaleString("en-US")} bytes (the extension's limit is 16 MiB, ${SKILL_SPEC_LIMITS.maxBytes.toLocaleString("en-US")} bytes).`,
      why: "Hosts must support skills of up to 16 MiB; a larger one may be refused by any of them.",
      fix: "Split the skill, or serve large data through a tool instead of as skill files.",
    });
}

function lintMetadata(metadata: unknown, add: Add): void {
  if (!isObject(metadata)) return;
  const reserved = Object.keys(metadata).filter((k) => k.startsWith(RESERVED_METADATA_PREFIX));
  if (reserved.length > 0)
    add({
      id: "skill-metadata-reserved",
      severity: "warning",
      message: `metadata uses the reserved key${reserved.length === 1 ? "" : "s"} ${reserved.map((k) => quoted(k, 60)).join(", ")}.`,
      why: `Keys starting with ${RESERVED_METADATA_PREFIX} are reserved for the protocol: hosts may give them a meaning this skill does not intend.`,
      fix: "Use a prefix of your own (your domain, reversed) for your metadata keys.",
    });
}

/** Lint one skill entry on its own (names shared with other skills: {@link lintSkills}). */
export function lintSkill(entry: unknown): SkillFinding[] {
  const out: SkillFinding[] = [];
  const uri = isObject(entry) && typeof entry.uri === "string" ? entry.uri : "";
  const add: Add = (f) => out.push({ ...f, ...(uri ? { skill: uri } : {}) });
  if (!skillFolder(uri))
    add({
      id: "skill-uri-not-skill-md",
      severity: "error",
      message: uri ? `The skill's URI ${quoted(uri, 120)} does not name a SKILL.md inside a folder.` : "The entry has no URI.",
      why: "A skill entry's uri is its SKILL.md, in the folder named after the skill; hosts load a skill from that URI alone.",
      fix: "Give the entry the URI of its SKILL.md, e.g. skill://acme/refunds/SKILL.md.",
    });
  const frontmatter = isObject(entry) && isObject(entry.frontmatter) ? entry.frontmatter : {};
  lintName(frontmatter.name, uri, add);
  lintDescription(frontmatter.description, add);
  lintMetadata(frontmatter.metadata, add);
  lintManifest(isObject(entry) ? entry.resources : undefined, uri, add);
  return out;
}

/** Two or more skills (by URI) with one name: a host must tell them apart and never let one stand for the other. */
function lintSharedNames(entries: unknown[]): SkillFinding[] {
  const byName = new Map<string, Set<string>>();
  for (const e of entries) {
    if (!isObject(e) || !isObject(e.frontmatter) || typeof e.frontmatter.name !== "string" || typeof e.uri !== "string") continue;
    const uris = byName.get(e.frontmatter.name) ?? new Set<string>();
    byName.set(e.frontmatter.name, uris.add(e.uri));
  }
  return [...byName]
    .filter(([, uris]) => uris.size > 1)
    .flatMap(([name, uris]) =>
      [...uris].map((uri) => ({
        id: "skill-name-duplicate" as const,
        severity: "warning" as const,
        skill: uri,
        message: `${uris.size} skills are named ${quoted(name)}: ${[...uris].join(", ")}.`,
        why: "Skill names are not unique identifiers: an agent asked for the name cannot tell which is meant, and a host must not let one silently stand for the other.",
        fix: "Give each skill its own name (its folder too), or serve only one of them.",
      })),
    );
}

/** Count findings by severity. */
export function summarizeSkillFindings(findings: SkillFinding[]): LintSummary {
  const summary: LintSummary = { error: 0, warning: 0, info: 0, total: findings.length };
  for (const f of findings) summary[f.severity]++;
  return summary;
}

/**
 * Lint a skills listing: each entry, the names they share, and the entries the client core set aside as invalid
 * (with the reason it gave), most severe first.
 */
export function lintSkills(entries: unknown[], invalid: InvalidSkill[] = []): SkillsLint {
  const findings: SkillFinding[] = [];
  for (const entry of entries) findings.push(...lintSkill(entry));
  findings.push(...lintSharedNames(entries));
  for (const bad of invalid)
    findings.push({
      id: "skill-entry-invalid",
      severity: "error",
      ...(bad.uri ? { skill: bad.uri } : {}),
      message: `The listing's entry ${bad.index + 1}${bad.uri ? ` (${bad.uri})` : ""} is not a valid skill entry: ${bad.reason}`,
      why: "Hosts skip entries that break the extension's rules: this skill is not offered to any agent.",
      fix: "Correct the entry as the reason says; the entry must repeat SKILL.md's frontmatter and list every file with its size and digest.",
    });
  findings.sort((a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity]);
  return { findings, summary: summarizeSkillFindings(findings) };
}
