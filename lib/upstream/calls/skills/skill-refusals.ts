import type { SkillVerificationError } from "@modelcontextprotocol/client/ext/skills";
import type { SkillEntry, SkillRefusal } from "@/lib/mcp/skills-contract";
import { isObject } from "@/lib/json/guards";
import { maskText } from "@/lib/mcp/mask-text";
import { requestSecrets } from "../../errors/request-secrets.ts";

/** Toolscope's skill limits (UpstreamSettings: TOOLSCOPE_SKILL_FILE_MAX_BYTES, _MAX_FILES, _MAX_BYTES). */
export interface SkillLimits {
  fileMaxBytes: number;
  maxFiles: number;
  maxSkillBytes: number;
}

const n = (value: number) => value.toLocaleString("en-US");

/** The folder a skill's files live in: its SKILL.md URI without the file name. */
function skillRoot(entry: SkillEntry): string {
  return entry.uri.slice(0, entry.uri.lastIndexOf("/") + 1);
}

/** How a message names a file: its path under the skill's folder ("references/FORMS.md"), else its URI. */
export function fileLabel(entry: SkillEntry, uri: string): string {
  const root = skillRoot(entry);
  return uri.startsWith(root) && uri.length > root.length ? uri.slice(root.length) : uri;
}

function skillName(entry: SkillEntry): string {
  return typeof entry.frontmatter.name === "string" ? entry.frontmatter.name : entry.uri;
}

/** The URI a read of `file` asks for, as plain URL resolution gives it (the SDK resolves it again, more carefully). */
export function targetUri(entry: SkillEntry, file: string | undefined): string | undefined {
  if (file === undefined) return entry.uri;
  try {
    const url = new URL(file, entry.uri);
    url.hash = "";
    return url.href;
  } catch {
    return undefined;
  }
}

/** A message and its parts, masked: a server's text (URIs, frontmatter values) may echo the user's headers. */
function refusal(r: SkillRefusal): SkillRefusal {
  const secrets = requestSecrets();
  return {
    ...r,
    message: maskText(r.message, secrets),
    ...(r.hint ? { hint: maskText(r.hint, secrets) } : {}),
    ...(r.differences ? { differences: r.differences.map((d) => maskText(d, secrets)) } : {}),
  };
}

/**
 * Refuse before anything is sent when the skill or the file is over Toolscope's limits, by the skill's own manifest: a
 * skill listing too many files or too many bytes is not read at all, nor is a listed file over the file limit.
 */
export function limitRefusal(entry: SkillEntry, file: string | undefined, limits: SkillLimits): SkillRefusal | undefined {
  const uri = targetUri(entry, file) ?? file ?? entry.uri;
  if (entry.resources === "dynamic") return undefined;
  const name = skillName(entry);
  const files = entry.resources.length;
  if (files > limits.maxFiles)
    return refusal({
      reason: "limit",
      limit: "TOOLSCOPE_SKILL_MAX_FILES",
      uri,
      message: `${name} lists ${n(files)} files, over the limit of ${n(limits.maxFiles)} per skill (TOOLSCOPE_SKILL_MAX_FILES); none of its files is read.`,
      hint: "Hosts must support skills of up to 512 files; an operator can raise TOOLSCOPE_SKILL_MAX_FILES.",
    });
  const total = entry.resources.reduce((sum, r) => sum + (Number.isFinite(r.size) ? r.size : 0), 0);
  if (total > limits.maxSkillBytes)
    return refusal({
      reason: "limit",
      limit: "TOOLSCOPE_SKILL_MAX_BYTES",
      uri,
      message: `${name}'s files add up to ${n(total)} bytes by its manifest, over the limit of ${n(limits.maxSkillBytes)} per skill (TOOLSCOPE_SKILL_MAX_BYTES); none of its files is read.`,
      hint: "Hosts must support skills of up to 16 MiB; an operator can raise TOOLSCOPE_SKILL_MAX_BYTES.",
    });
  const listed = entry.resources.find((r) => targetUri(entry, r.uri) === uri);
  if (listed && listed.size > limits.fileMaxBytes) return fileTooLarge(entry, listed.uri, listed.size, limits, "by its manifest");
  return undefined;
}

/** A file over TOOLSCOPE_SKILL_FILE_MAX_BYTES: by its manifest (not read), or as read (a "dynamic" skill's: not used). */
export function fileTooLarge(entry: SkillEntry, uri: string, size: number, limits: SkillLimits, how: string): SkillRefusal {
  return refusal({
    reason: "limit",
    limit: "TOOLSCOPE_SKILL_FILE_MAX_BYTES",
    uri,
    message: `${fileLabel(entry, uri)} of ${skillName(entry)} is ${n(size)} bytes ${how}, over the size limit of ${n(limits.fileMaxBytes)} (TOOLSCOPE_SKILL_FILE_MAX_BYTES); it was not ${how === "as read" ? "used" : "read"}.`,
    hint: "An operator can raise TOOLSCOPE_SKILL_FILE_MAX_BYTES; the answer is also bounded by TOOLSCOPE_MAX_RESPONSE_BYTES.",
  });
}

/** The bytes the server sent for `uri` in a resources/read result (text as UTF-8, a blob decoded). */
export function contentBytes(result: Record<string, unknown> | undefined, uri: string): Uint8Array | undefined {
  const contents = Array.isArray(result?.contents) ? result.contents.filter(isObject) : [];
  const item = contents.find((c) => c.uri === uri) ?? (contents.length === 1 ? contents[0] : undefined);
  if (!item) return undefined;
  if (typeof item.text === "string") return new TextEncoder().encode(item.text);
  return typeof item.blob === "string" ? new Uint8Array(Buffer.from(item.blob, "base64")) : undefined;
}

/** `sha256:` and the lowercase hex SHA-256 of `bytes` (WebCrypto, as the SDK computes it). */
export async function sha256Digest(bytes: Uint8Array): Promise<string> {
  const hash = new Uint8Array(await globalThis.crypto.subtle.digest("SHA-256", new Uint8Array(bytes)));
  return `sha256:${Array.from(hash, (b) => b.toString(16).padStart(2, "0")).join("")}`;
}

const REFRESH_HINT =
  "The server changed the file without updating the skill's entry, or something on the way altered it. Get the entry again (skills/get) and read once more; if it still fails, the server must fix its manifest.";

/**
 * The SDK's verdict (SkillVerificationError) as a refusal naming the file, the skill and what differs. `read` is what the
 * server answered, for the size and digest it actually sent (the SDK's error names only the entry's side).
 */
export async function verificationRefusal(
  err: SkillVerificationError,
  entry: SkillEntry,
  read: Record<string, unknown> | undefined,
): Promise<SkillRefusal> {
  const name = skillName(entry);
  const label = fileLabel(entry, err.uri);
  const listed =
    entry.resources === "dynamic" ? undefined : entry.resources.find((r) => targetUri(entry, r.uri) === targetUri(entry, err.uri));
  const bytes = contentBytes(read, err.uri);
  // A SKILL.md that fails takes the skill with it; a supporting file only itself.
  const dropped = targetUri(entry, err.uri) === entry.uri ? "the skill was not loaded" : "the file was not used";
  switch (err.reason) {
    case "unlisted":
      return refusal({
        reason: "unlisted",
        uri: err.uri,
        message: `${label} is not listed in the skill's manifest (${name}); nothing was sent: Toolscope reads only the files a skill's entry lists.`,
        hint: "Pick a file from the entry's resources, or get the entry again (skills/get) if the skill changed.",
      });
    case "size":
      return refusal({
        reason: "size",
        uri: err.uri,
        message: `${label} of ${name}: size ${bytes ? n(bytes.byteLength) : "other"} bytes, the manifest says ${listed ? n(listed.size) : "otherwise"}; ${dropped}.`,
        hint: REFRESH_HINT,
      });
    case "digest":
      return refusal({
        reason: "digest",
        uri: err.uri,
        message: `${label} of ${name}: digest mismatch: the file hashes to ${bytes ? await sha256Digest(bytes) : "another digest"}, the manifest says ${listed?.digest ?? "otherwise"}; ${dropped}.`,
        hint: REFRESH_HINT,
      });
    case "frontmatter": {
      const differences = [...err.differences];
      const fields = differences.map((d) => /^(.*?): the entry has /.exec(d)?.[1] ?? d);
      const what = fields.length
        ? `frontmatter field${fields.length === 1 ? "" : "s"} ${fields.join(", ")} differ${fields.length === 1 ? "s" : ""} from the entry's (${differences.join("; ")})`
        : `its frontmatter cannot be compared with the entry's: ${err.message.replace(/^.*?: /, "")}`;
      return refusal({
        reason: "frontmatter",
        uri: err.uri,
        message: `${label} of ${name}: ${what}; the skill was not loaded.`,
        hint: "SKILL.md's frontmatter must be identical to the entry's frontmatter, field by field (SEP-2640).",
        ...(differences.length ? { differences } : {}),
      });
    }
  }
}
