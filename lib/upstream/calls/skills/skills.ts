/**
 * The skills extension (`io.modelcontextprotocol/skills`, SEP-2640) as a host uses it: list, get, read a file verified,
 * read a directory. The rules (which entries are valid, which URI a file is read at, size, digest, frontmatter field by
 * field) are the SDK's SkillsClient's; it runs here on SkillsWire, so every request goes through Toolscope's own
 * sender. What is Toolscope's: the declaration is checked before anything is sent, nothing is read before it is
 * asked for (listing reads no file), the skill limits (TOOLSCOPE_SKILL_*), and refusals as data naming what differs.
 */
import { SdkError } from "@modelcontextprotocol/client";
import {
  SkillsClient,
  SkillVerificationError,
  SKILLS_EXTENSION_ID,
  type Skill,
  type SkillFile as SdkSkillFile,
} from "@modelcontextprotocol/client/ext/skills";
import type { ConnectionDescriptor, UserHeaders } from "@/lib/mcp/contract";
import type {
  SkillEntry,
  SkillFile,
  SkillsDirectoryResponse,
  SkillsGetResponse,
  SkillsListResponse,
  SkillsReadResponse,
} from "@/lib/mcp/skills-contract";
import { isObject } from "@/lib/json/guards";
import { maskText } from "@/lib/mcp/mask-text";
import { ExchangeFailure } from "../../exchange/exchange-core.ts";
import { requestSecrets } from "../../errors/request-secrets.ts";
import { ProxyError } from "../../errors/proxy-error.ts";
import type { Upstream } from "../../upstream.ts";
import { sendRpc } from "../send-rpc.ts";
import { fileTooLarge, limitRefusal, sha256Digest, verificationRefusal, type SkillLimits } from "./skill-refusals.ts";
import { SkillRpcError, SkillsWire, type SkillSender } from "./skills-wire.ts";

export interface SkillsCallOptions {
  send: SkillSender;
  descriptor: Pick<ConnectionDescriptor, "era" | "protocolVersion" | "discover">;
  /** The server's capabilities as connect returned them: a legacy descriptor does not hold what initialize declared. */
  capabilities?: Record<string, unknown>;
  limits: SkillLimits;
  /** skills/list (and directory) pages read at most: TOOLSCOPE_MAX_TOOL_PAGES. */
  maxPages: number;
  /** The whole list walk's deadline: TOOLSCOPE_LIST_DEADLINE_MS. */
  deadlineMs: number;
  now?: () => number;
}

type Answer<T> = Omit<T, "connection" | "notes">;

/** What the server declared: the discover result's capabilities on a modern descriptor, else the ones given. */
function serverCapabilities(opts: SkillsCallOptions): Record<string, unknown> {
  const discovered = opts.descriptor.era === "modern" ? opts.descriptor.discover?.capabilities : undefined;
  if (isObject(discovered)) return discovered;
  if (opts.capabilities) return opts.capabilities;
  throw new ProxyError(
    "bad-request",
    "Toolscope cannot tell whether this server declared the skills extension: a legacy connection's descriptor does not hold its capabilities.",
    'Send "capabilities" as /api/connect returned them (server.capabilities) with the request.',
  );
}

/** Refuse before anything is sent unless the server declared the extension, and resources, which it requires. */
function refuseUndeclared(client: SkillsClient, capabilities: Record<string, unknown>): void {
  const extensions = isObject(capabilities.extensions) ? capabilities.extensions : {};
  if (!isObject(extensions[SKILLS_EXTENSION_ID]))
    throw new ProxyError(
      "bad-request",
      `The server did not declare the skills extension (capabilities.extensions["${SKILLS_EXTENSION_ID}"]): Toolscope sends skills/list, skills/get and skill reads only to a server that does.`,
      "A server serving skills declares the extension (SEP-2640); this one serves none that a host may load.",
    );
  if (!client.supported)
    throw new ProxyError(
      "bad-request",
      `The server declared the skills extension but not the resources capability, which the extension requires: its skill files could not be read.`,
      "The server must declare capabilities.resources as well (SEP-2640).",
    );
}

/** A failure of an operation as a ProxyError, with every exchange made before it (the wire record of the attempt). */
function failure(err: unknown, wire: SkillsWire): ExchangeFailure {
  let cause = err;
  if (err instanceof SkillRpcError)
    cause =
      err.method === "skills/get" && err.code === -32602
        ? new ProxyError("bad-request", `The server serves no skill at that URI: ${err.serverMessage.slice(0, 300)} (code -32602).`)
        : new ProxyError("upstream-protocol", err.message);
  else if (err instanceof SdkError) cause = new ProxyError("upstream-protocol", err.message.slice(0, 1_000));
  else if (err instanceof TypeError && /not a (valid skill entry|SKILL\.md URI)/.test(err.message))
    cause = new ProxyError(
      "bad-request",
      err.message,
      "Send an entry exactly as skills/list or skills/get returned it, or its SKILL.md URI.",
    );
  return new ExchangeFailure(cause, wire.exchanges);
}

/** Run one operation on a wire of its own: the declaration checked first, failures with their exchanges. */
async function withSkills<T>(opts: SkillsCallOptions, run: (client: SkillsClient, wire: SkillsWire) => Promise<T>): Promise<T> {
  const now = opts.now ?? Date.now;
  const capabilities = serverCapabilities(opts);
  const wire = new SkillsWire({
    send: opts.send,
    capabilities,
    protocolVersion: opts.descriptor.protocolVersion,
    maxPages: opts.maxPages,
    deadline: now() + opts.deadlineMs,
    deadlineMs: opts.deadlineMs,
    now,
  });
  // skipInvalid: a bad entry is listed as refused, with its reason, rather than failing the whole listing.
  const client = new SkillsClient(wire, { skipInvalid: true });
  refuseUndeclared(client, capabilities);
  try {
    return await run(client, wire);
  } catch (err) {
    throw failure(err, wire);
  }
}

const cacheFields = (r: { ttlMs?: number; cacheScope?: "public" | "private" }) => ({
  ...(r.ttlMs !== undefined ? { ttlMs: r.ttlMs } : {}),
  ...(r.cacheScope !== undefined ? { cacheScope: r.cacheScope } : {}),
});

/** skills/list, every page within the limits. Reads no file: a skill is loaded only when one of its files is asked for. */
export function listSkills(opts: SkillsCallOptions): Promise<Answer<SkillsListResponse>> {
  return withSkills(opts, async (client, wire) => {
    const listing = await client.list();
    const skills = listing.skills as SkillEntry[];
    const overLimits = skills.map((s) => limitRefusal(s, undefined, opts.limits)?.message).filter((m): m is string => m !== undefined);
    return {
      op: "list",
      skills,
      // The reasons quote the server's entries, which may echo the user's headers.
      invalid: listing.invalid.map((i) => ({ ...i, reason: maskText(i.reason, requestSecrets()) })),
      warnings: [...wire.warnings, ...overLimits],
      pages: wire.pages,
      ...cacheFields(listing),
      directoryRead: client.directoryRead,
      exchanges: wire.exchanges,
    };
  });
}

/** skills/get of one SKILL.md URI, listed or not. */
export function getSkill(opts: SkillsCallOptions, uri: string): Promise<Answer<SkillsGetResponse>> {
  return withSkills(opts, async (client, wire) => {
    const got = await client.get(uri);
    return { op: "get", skill: got.skill as SkillEntry, ...cacheFields(got), exchanges: wire.exchanges };
  });
}

async function fileView(file: SdkSkillFile): Promise<SkillFile> {
  return {
    uri: file.uri,
    ...(file.mimeType !== undefined ? { mimeType: file.mimeType } : {}),
    size: file.bytes.byteLength,
    digest: await sha256Digest(file.bytes),
    verified: file.verified,
    ...(file.text !== undefined ? { text: file.text } : { blob: Buffer.from(file.bytes).toString("base64") }),
    ...(file.frontmatter !== undefined ? { frontmatter: file.frontmatter } : {}),
    ...(file.body !== undefined ? { body: file.body } : {}),
  };
}

/**
 * One file of a skill (SKILL.md when `file` is left out), verified against the entry held (`skill`), or against the one
 * skills/get returns for a SKILL.md URI. A file that fails a check comes back as `refused`, never as content.
 */
export function readSkillFile(opts: SkillsCallOptions, skill: SkillEntry | string, file?: string): Promise<Answer<SkillsReadResponse>> {
  return withSkills(opts, async (client, wire) => {
    const entry = typeof skill === "string" ? ((await client.get(skill)).skill as SkillEntry) : skill;
    const answer = { op: "read" as const, skill: entry, exchanges: wire.exchanges };
    const overLimit = limitRefusal(entry, file, opts.limits);
    if (overLimit) return { ...answer, refused: overLimit };
    let read: SdkSkillFile;
    try {
      read = await client.read(entry as Skill, file);
    } catch (err) {
      if (err instanceof SkillVerificationError) return { ...answer, refused: await verificationRefusal(err, entry, wire.lastRead) };
      throw err;
    }
    // A "dynamic" skill's file has no size to check beforehand.
    if (read.bytes.byteLength > opts.limits.fileMaxBytes)
      return { ...answer, refused: fileTooLarge(entry, read.uri, read.bytes.byteLength, opts.limits, "as read") };
    return { ...answer, file: await fileView(read) };
  });
}

/** resources/directory/read of a skill folder, every page: only on a server that declared `directoryRead: true`. */
export function readSkillDirectory(opts: SkillsCallOptions, uri: string): Promise<Answer<SkillsDirectoryResponse>> {
  return withSkills(opts, async (client, wire) => {
    if (!client.directoryRead)
      throw new ProxyError(
        "bad-request",
        `The server did not declare directoryRead: true for the skills extension: Toolscope sends resources/directory/read only to a server that does.`,
        "Read the files the skill's entry lists instead (its resources).",
      );
    const dir = await client.readDirectory(uri);
    return {
      op: "directory",
      uri,
      resources: dir.resources as SkillsDirectoryResponse["resources"],
      ...cacheFields(dir),
      exchanges: wire.exchanges,
    };
  });
}

/** A sender over sendRpc for a program using the core directly (the web service sends through /api/rpc's path). */
export function rpcSender(
  upstream: Upstream,
  descriptor: ConnectionDescriptor,
  io: { userHeaders: UserHeaders; timeoutMs: number; maxBodyBytes: number; signal?: AbortSignal },
): SkillSender {
  return async (message) => {
    const answer = await sendRpc({
      upstream,
      descriptor,
      message,
      userHeaders: io.userHeaders,
      findTool: async () => undefined,
      timeoutMs: io.timeoutMs,
      maxBodyBytes: io.maxBodyBytes,
      signal: io.signal,
    });
    return { response: answer.response, exchanges: answer.exchanges };
  };
}
