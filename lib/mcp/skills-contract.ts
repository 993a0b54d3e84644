/**
 * The API of the skills extension (`io.modelcontextprotocol/skills`, SEP-2640): POST /api/skills lists a server's
 * skills, gets one, reads one of its files verified against the skill's entry, or reads a skill directory. Types only,
 * shared by the route, the browser and the conformance adapter; docs/api.md describes the route.
 */
import type { CacheScope, ConnectionDescriptor, UserHeaders } from "./contract.ts";
import type { HttpExchange } from "./http-exchange.ts";

/** The extension's id, as a server declares it under `capabilities.extensions`. */
export const SKILLS_EXTENSION = "io.modelcontextprotocol/skills";

/** One file of a skill as its entry lists it: what a read is verified against. */
export interface SkillFileEntry {
  uri: string;
  /** `sha256:` and 64 lowercase hex digits, over the file's raw bytes. */
  digest: string;
  /** The file's length in bytes. */
  size: number;
}

/** A skill entry as `skills/list` and `skills/get` carry it (other fields pass through). */
export interface SkillEntry {
  /** The URI of the skill's SKILL.md. */
  uri: string;
  /** SKILL.md's YAML frontmatter as JSON: `name` and `description` always, the rest verbatim. */
  frontmatter: { name: string; description: string; [field: string]: unknown };
  /** Every file of the skill (its manifest), or "dynamic": generated content, which nothing can verify but the frontmatter. */
  resources: SkillFileEntry[] | "dynamic";
  _meta?: Record<string, unknown>;
}

export type SkillsOp =
  /** skills/list, every page within TOOLSCOPE_MAX_TOOL_PAGES and TOOLSCOPE_LIST_DEADLINE_MS; reads no file. */
  | { op: "list" }
  /** skills/get of one SKILL.md URI (listed or not). */
  | { op: "get"; uri: string }
  /**
   * resources/read of one file of a skill, then its size and digest against the skill's entry and, for SKILL.md, its
   * frontmatter field by field. `skill` is the entry the browser holds (from list or get) or a SKILL.md URI (then
   * skills/get runs first); `file` is a URI or a path under the skill's folder, SKILL.md when left out.
   */
  | { op: "read"; skill: SkillEntry | string; file?: string }
  /** resources/directory/read of a skill folder: only on a server that declared `directoryRead: true`. */
  | { op: "directory"; uri: string };

export type SkillsRequest = SkillsOp & {
  connection: ConnectionDescriptor;
  headers?: UserHeaders;
  /**
   * The server's capabilities as /api/connect returned them (`server.capabilities`). A legacy connection needs them:
   * its descriptor does not hold what the server declared at initialize. A modern descriptor's discover result wins.
   */
  capabilities?: Record<string, unknown>;
};

/** What every answer carries. */
interface SkillsAnswer {
  /** Every HTTP exchange of the operation, in order (secrets masked, as /api/rpc records them). */
  exchanges: HttpExchange[];
  /** Set when a legacy session had expired and Toolscope started a new one: keep it for the next call. */
  connection?: ConnectionDescriptor;
  notes?: string[];
}

/** A listing entry the SDK's checks refused (bad shape, a name against the naming rules, a repeated URI…). */
export interface InvalidSkill {
  /** Its position across every page read. */
  index: number;
  uri?: string;
  reason: string;
}

export interface SkillsListResponse extends SkillsAnswer {
  op: "list";
  skills: SkillEntry[];
  invalid: InvalidSkill[];
  /** A list cut at a limit, skills over Toolscope's skill limits (they stay listed but will not be read). */
  warnings: string[];
  pages: number;
  ttlMs?: number;
  cacheScope?: CacheScope;
  /** The server declared `directoryRead: true`: the `directory` operation may be used. */
  directoryRead: boolean;
}

export interface SkillsGetResponse extends SkillsAnswer {
  op: "get";
  skill: SkillEntry;
  ttlMs?: number;
  cacheScope?: CacheScope;
}

/** A file that passed every check. */
export interface SkillFile {
  uri: string;
  mimeType?: string;
  /** Bytes as read. */
  size: number;
  /** `sha256:…` of the bytes as read (for a listed file, equal to its entry's). */
  digest: string;
  /** Size and digest were checked against the entry; false for a "dynamic" skill (its frontmatter still was). */
  verified: boolean;
  /** The content when the server sent text. */
  text?: string;
  /** Otherwise its bytes, base64. */
  blob?: string;
  /** SKILL.md only: its frontmatter (equal to the entry's) and the Markdown after it. */
  frontmatter?: Record<string, unknown>;
  body?: string;
}

export type SkillRefusalReason =
  /** The file is not in the skill's manifest: nothing was sent. */
  | "unlisted"
  /** Its byte length differs from the manifest's. */
  | "size"
  /** Its SHA-256 differs from the manifest's. */
  | "digest"
  /** SKILL.md's frontmatter differs from the entry's, or cannot be read. */
  | "frontmatter"
  /** Over one of Toolscope's skill limits (TOOLSCOPE_SKILL_*): named in `limit`. */
  | "limit";

/** Why a file (or, for SKILL.md, the skill) was not used. The content is not returned; the exchanges show it. */
export interface SkillRefusal {
  reason: SkillRefusalReason;
  /** One line naming the file, the skill and what differs, e.g. "SKILL.md of pdf-processing: size 55 bytes, the manifest says 12". */
  message: string;
  hint?: string;
  /** The file's URI as requested (or as it would have been). */
  uri: string;
  /** `frontmatter`: one line per differing field. */
  differences?: string[];
  /** `limit`: the setting that refused it. */
  limit?: "TOOLSCOPE_SKILL_FILE_MAX_BYTES" | "TOOLSCOPE_SKILL_MAX_FILES" | "TOOLSCOPE_SKILL_MAX_BYTES";
}

export interface SkillsReadResponse extends SkillsAnswer {
  op: "read";
  /** The entry the file was checked against (the one sent, or what skills/get returned). */
  skill: SkillEntry;
  /** Exactly one of `file` and `refused`. */
  file?: SkillFile;
  refused?: SkillRefusal;
}

/** A child of a skill directory (`inode/directory` for a folder). */
export interface SkillDirectoryChild {
  uri: string;
  name: string;
  mimeType?: string;
  size?: number;
  [field: string]: unknown;
}

export interface SkillsDirectoryResponse extends SkillsAnswer {
  op: "directory";
  uri: string;
  resources: SkillDirectoryChild[];
  ttlMs?: number;
  cacheScope?: CacheScope;
}

export type SkillsResponse = SkillsListResponse | SkillsGetResponse | SkillsReadResponse | SkillsDirectoryResponse;
