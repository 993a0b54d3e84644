/**
 * POST /api/skills: the body checked before anything is sent. Only the shape is checked here; a skill entry's rules
 * (its URI, name, digests, files inside the skill's folder) are the SDK's SkillsClient's to check, in lib/upstream.
 */
import { ContractError, parseDescriptor, parseUserHeaders, requireObject, type HeaderLimits } from "./contract-guards.ts";
import type { UserHeaders } from "./contract.ts";
import type { SkillEntry, SkillsRequest } from "./skills-contract.ts";
import { isObject } from "../json/guards.ts";

/** Longest URI or file path accepted: far above real skill URIs, far below abuse. */
const MAX_URI_CHARS = 4_096;

const OPS = ["list", "get", "read", "directory"] as const;

function parseUri(value: unknown, name: string, example: string): string {
  if (typeof value !== "string" || value.length === 0 || value.length > MAX_URI_CHARS)
    throw new ContractError(`"${name}" must be a URI such as ${example} (at most ${MAX_URI_CHARS.toLocaleString("en-US")} characters).`);
  return value;
}

/** The entry the browser holds: its shape only, so that a wrong one is named here rather than deep in a check. */
function parseEntry(value: unknown): SkillEntry {
  if (!isObject(value) || typeof value.uri !== "string" || !isObject(value.frontmatter))
    throw new ContractError(
      '"skill" must be the skill entry skills/list or skills/get returned ({"uri", "frontmatter", "resources"}) or its SKILL.md URI.',
    );
  if (value.resources !== "dynamic" && !Array.isArray(value.resources))
    throw new ContractError('"skill.resources" must be the entry\'s list of files or "dynamic", as the server sent it.');
  parseUri(value.uri, "skill.uri", "skill://pdf-processing/SKILL.md");
  return value as unknown as SkillEntry;
}

export function parseSkillsRequest(body: unknown, limits: HeaderLimits): SkillsRequest & { headers: UserHeaders } {
  const b = requireObject(body, 'like {"connection": {…}, "op": "list"}');
  const op = b.op;
  if (typeof op !== "string" || !(OPS as readonly string[]).includes(op))
    throw new ContractError(`"op" must be one of ${OPS.map((o) => `"${o}"`).join(", ")}.`);
  if (b.capabilities !== undefined && !isObject(b.capabilities))
    throw new ContractError('"capabilities" must be the object /api/connect returned as server.capabilities.');
  const common = {
    connection: parseDescriptor(b.connection),
    headers: parseUserHeaders(b.headers, limits),
    ...(b.capabilities !== undefined ? { capabilities: b.capabilities as Record<string, unknown> } : {}),
  };
  switch (op as (typeof OPS)[number]) {
    case "list":
      return { ...common, op: "list" };
    case "get":
      return { ...common, op: "get", uri: parseUri(b.uri, "uri", "skill://pdf-processing/SKILL.md") };
    case "directory":
      return { ...common, op: "directory", uri: parseUri(b.uri, "uri", "skill://pdf-processing/references") };
    case "read": {
      const skill = typeof b.skill === "string" ? parseUri(b.skill, "skill", "skill://pdf-processing/SKILL.md") : parseEntry(b.skill);
      const file = b.file === undefined ? undefined : parseUri(b.file, "file", "references/FORMS.md or its full URI");
      return { ...common, op: "read", skill, ...(file !== undefined ? { file } : {}) };
    }
  }
}
