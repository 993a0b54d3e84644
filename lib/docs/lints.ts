/**
 * Docs lints for tool definitions: naming, descriptions, schemas, headers, caching hints and signs of
 * tool poisoning. Findings are data (id, severity, message, why, fix) so the UI and exports can render them.
 */
import type { Tool } from "../mcp/contract.ts";
import { buildParamTree, walkRows, type ParamRow, type ParamTree } from "./param-rows.ts";
import { isObject } from "../json/guards.ts";
import { collectRefs, isNetworkRef, isLocalRef, lookupRef } from "../schema/ref.ts";
import { disallowedNameChars, isClaudeToolName, isSpecToolName, MAX_TOOL_NAME_LENGTH, toClaudeToolName } from "./tool-names.ts";
import { MAX_TTL_MS } from "./cache-words.ts";
import { invisibleChars } from "../mcp/visible-text.ts";
import { originalLength } from "../mcp/tool-text-caps.ts";
import { lintToolApp, type AppLintId } from "./apps/app-lints.ts";
import { deprecationSentence, serverDeprecations, type DeprecationId } from "../mcp/deprecations.ts";

export type Severity = "error" | "warning" | "info";

export type LintId =
  | "name-missing"
  | "name-too-long"
  | "name-invalid-chars"
  | "name-duplicate"
  | "name-case-collision"
  | "name-claude-incompatible"
  | "description-missing"
  | "description-thin"
  | "description-very-long"
  | "param-description-missing"
  | "param-name-ambiguous"
  | "schema-missing"
  | "schema-root-not-object"
  | "schema-no-params-open"
  | "schema-network-ref"
  | "schema-missing-ref"
  | "header-on-secret"
  | "ttl-missing"
  | "ttl-invalid"
  | "ttl-negative"
  | "ttl-not-integer"
  | "ttl-too-long"
  | "cache-scope-invalid"
  | "poison-invisible-chars"
  | "poison-html-comment"
  | "poison-ignore-instructions"
  | "poison-important-tag"
  | "poison-file-access"
  | "poison-secrecy"
  | "deprecated-logging"
  | "deprecated-http-sse"
  | AppLintId;

export interface Finding {
  id: LintId;
  severity: Severity;
  /** Absent for list-level findings (ttlMs, cacheScope). */
  toolName?: string;
  /** JSON pointer into the arguments when the finding is about one parameter. */
  path?: string;
  message: string;
  why: string;
  fix: string;
}

export interface LintSummary {
  error: number;
  warning: number;
  info: number;
  total: number;
}

export interface ServerLint {
  findings: Finding[];
  summary: LintSummary;
}

export interface ListHints {
  ttlMs?: unknown;
  cacheScope?: unknown;
  /** The server's era: ttlMs and cacheScope came with 2026-07-28, so a legacy server is not asked for them. */
  era?: "modern" | "legacy";
  /** The server's capabilities and transport, for the deprecated features it declares (logging, HTTP+SSE). */
  capabilities?: unknown;
  transport?: string;
}

/** The hints of a server and its list: one rule for the web docs and the command line. */
export function listHints(
  server: { era: "modern" | "legacy"; capabilities?: unknown; transport?: string },
  list: { ttlMs?: unknown; cacheScope?: unknown },
): ListHints {
  return {
    ttlMs: list.ttlMs,
    cacheScope: list.cacheScope,
    era: server.era,
    capabilities: server.capabilities,
    ...(server.transport !== undefined ? { transport: server.transport } : {}),
  };
}

/** Descriptions shorter than this (characters) are "thin". */
export const MIN_DESCRIPTION_CHARS = 40;
/** Descriptions with fewer sentences than this are "thin". */
export const MIN_DESCRIPTION_SENTENCES = 2;
/** Descriptions longer than this cost noticeable context on every request. */
export const LONG_DESCRIPTION_CHARS = 4000;

const SEVERITY_ORDER: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

/** Lint one tool on its own (no cross-tool checks). */
export function lintTool(tool: Tool): Finding[] {
  const out: Finding[] = [];
  const name = typeof tool?.name === "string" ? tool.name : "";
  const add = (f: Omit<Finding, "toolName">) => out.push({ ...f, toolName: name || undefined });

  const schema = tool?.inputSchema;
  // Built once for both the poisoning and the schema checks: it is most of a tool's lint time.
  const tree = isObject(schema) ? buildParamTree(schema) : undefined;
  lintName(name, tool?.name, add);
  lintDescription(tool?.description, add);
  lintPoisoning(tool, tree, add);
  for (const finding of lintToolApp(tool ?? {})) add(finding);

  if (!isObject(schema) || !tree) {
    add({
      id: "schema-missing",
      severity: "error",
      message: "inputSchema is missing or not a JSON object.",
      why: "The spec requires every tool to carry an inputSchema object; clients cannot validate or build arguments without it.",
      fix: 'Send at least { "type": "object", "additionalProperties": false }.',
    });
    return out;
  }
  lintSchema(schema, tree, add);
  return out;
}

/** Lint a whole tools/list result: per-tool findings, duplicates and list-level caching hints. */
export function lintServer(tools: Tool[], hints: ListHints = {}): ServerLint {
  const findings: Finding[] = [];
  const list = Array.isArray(tools) ? tools : [];
  for (const tool of list) findings.push(...lintTool(tool));

  const seen = new Map<string, number>();
  const lower = new Map<string, Set<string>>();
  for (const tool of list) {
    if (typeof tool?.name !== "string") continue;
    seen.set(tool.name, (seen.get(tool.name) ?? 0) + 1);
    const key = tool.name.toLowerCase();
    if (!lower.has(key)) lower.set(key, new Set());
    lower.get(key)!.add(tool.name);
  }
  for (const [name, count] of seen) {
    if (count < 2) continue;
    findings.push({
      id: "name-duplicate",
      severity: "error",
      toolName: name,
      message: `${count} tools are named "${name}".`,
      why: "Tool names should be unique within a server; a call by name can only reach one of them.",
      fix: "Give each tool its own name, e.g. add a namespace prefix or a version suffix.",
    });
  }
  for (const names of lower.values()) {
    if (names.size < 2) continue;
    const all = [...names];
    findings.push({
      id: "name-case-collision",
      severity: "warning",
      toolName: all[0],
      message: `Tool names differ only by case: ${all.map((n) => `"${n}"`).join(", ")}.`,
      why: "Names are case-sensitive in MCP, but models and some clients treat them case-insensitively, so the wrong tool may be called.",
      fix: "Rename so the names differ by more than letter case.",
    });
  }
  findings.push(...lintListHints(hints), ...lintDeprecations(hints));
  findings.sort((a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity]);
  return { findings, summary: summarize(findings) };
}

/** Count findings by severity. */
export function summarize(findings: Finding[]): LintSummary {
  const summary: LintSummary = { error: 0, warning: 0, info: 0, total: findings.length };
  for (const f of findings) summary[f.severity]++;
  return summary;
}

type Add = (f: Omit<Finding, "toolName">) => void;

function lintName(name: string, raw: unknown, add: Add): void {
  if (typeof raw !== "string" || raw === "") {
    add({
      id: "name-missing",
      severity: "error",
      message: "The tool has no name.",
      why: "name is required: tools/call addresses tools by name.",
      fix: "Give the tool a name of 1–128 characters from A-Z a-z 0-9 _ - .",
    });
    return;
  }
  if (name.length > MAX_TOOL_NAME_LENGTH) {
    add({
      id: "name-too-long",
      severity: "error",
      message: `The name is ${name.length} characters long (the limit is ${MAX_TOOL_NAME_LENGTH}).`,
      why: "The spec (SEP-986) says tool names should be 1–128 characters; model APIs reject longer names.",
      fix: "Shorten the name; put detail in the title or description.",
    });
  }
  const bad = disallowedNameChars(name);
  if (bad.length > 0) {
    add({
      id: "name-invalid-chars",
      severity: "error",
      message: `The name contains characters outside A-Z a-z 0-9 _ - . : ${bad.join(", ")}.`,
      why: "The spec (SEP-986) allows only ASCII letters, digits, underscore, hyphen and dot; clients and model APIs may reject or mangle other characters.",
      fix: `Rename, e.g. "${toClaudeToolName(name)}".`,
    });
  } else if (isSpecToolName(name) && !isClaudeToolName(name)) {
    add({
      id: "name-claude-incompatible",
      severity: "warning",
      message: `The name is valid MCP but not a valid Claude API tool name; clients must map it, e.g. to "${toClaudeToolName(name)}".`,
      why: "The Claude API accepts tool names matching ^[a-zA-Z0-9_-]{1,128}$, so dots must be rewritten, and the mapped name may collide with another tool.",
      fix: "Prefer underscores or hyphens as namespace separators (e.g. github_create_issue).",
    });
  }
}

/** Number of sentences in a description (rough: terminal punctuation followed by space or end). */
export function sentenceCount(text: string): number {
  const stripped = text
    .replace(/```[\s\S]*?```/g, " ")
    .replace(/`[^`]*`/g, "x")
    .replace(/\b(e\.g|i\.e|etc|vs|approx|incl|cf)\./gi, "$1");
  return stripped
    .split(/[.!?。](?:\s|$)|\n\s*\n|\n\s*[-*]\s/)
    .map((s) => s.trim())
    .filter((s) => s.length > 2).length;
}

function lintDescription(description: unknown, add: Add): void {
  const text = typeof description === "string" ? description.trim() : "";
  if (text === "") {
    add({
      id: "description-missing",
      severity: "warning",
      message: "The tool has no description.",
      why: "The model picks tools by their descriptions; without one it has to guess from the name.",
      fix: "Write 3–4 sentences: what the tool does, when to use it (and when not), what it returns and what it does not.",
    });
    return;
  }
  if (text.length < MIN_DESCRIPTION_CHARS || sentenceCount(text) < MIN_DESCRIPTION_SENTENCES) {
    add({
      id: "description-thin",
      severity: "warning",
      message: `The description is thin (${text.length} characters, ${sentenceCount(text)} sentence${sentenceCount(text) === 1 ? "" : "s"}).`,
      why: "Short descriptions are the most common cause of a model choosing the wrong tool or the wrong arguments; vendors advise at least 3–4 sentences.",
      fix: "Say what the tool does, when to use it and when not, what each important argument means, and what it does not return.",
    });
  }
  const sent = originalLength(text);
  if (sent > LONG_DESCRIPTION_CHARS) {
    add({
      id: "description-very-long",
      severity: "info",
      message: `The description is ${sent} characters long${sent > text.length ? " (shown cut)" : ""}.`,
      why: "Tool descriptions are sent with every model request; very long ones cost context and can bury the important part.",
      fix: "Move reference material into a resource or the parameter descriptions; keep the tool description focused.",
    });
  }
}

const AMBIGUOUS_NAMES = new Set([
  "data",
  "value",
  "values",
  "input",
  "inputs",
  "params",
  "parameters",
  "args",
  "arguments",
  "payload",
  "body",
  "info",
  "obj",
  "object",
  "item",
  "thing",
  "stuff",
  "content",
  "options",
  "opts",
  "misc",
  "extra",
  "text",
  "str",
  "val",
  "x",
  "q2",
]);
/** Words a description needs, besides the name itself, to say what a generically named parameter holds. */
const CONTENT_DESCRIPTION_WORDS = 4;

/** Whether `description` says what the parameter holds: a few words of its own, not the name said again. */
function describesContent(description: string | undefined, name: string): boolean {
  const words = (description ?? "")
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w && w !== name && !["the", "a", "an", "of", "to"].includes(w));
  return words.length >= CONTENT_DESCRIPTION_WORDS;
}

const ENTITY_NOUNS = new Set([
  "user",
  "account",
  "customer",
  "project",
  "repo",
  "repository",
  "org",
  "organization",
  "team",
  "file",
  "document",
  "doc",
  "order",
  "issue",
  "ticket",
  "channel",
  "workspace",
  "owner",
  "member",
  "group",
  "page",
  "database",
  "table",
]);
const SECRET_NAME =
  /(pass(word|wd|phrase)?|pwd|secret|token|api[-_]?key|(^|[-_])key$|^key$|private[-_]?key|credential|auth|session|cookie|e-?mail|ssn|card[-_]?number|cvv|otp|pin$)/i;

function isIdName(name: string): boolean {
  return /(^|[-_])id$/i.test(name) || /[a-z]Id$/.test(name) || /[a-z]ID$/.test(name);
}

function lintSchema(schema: Record<string, unknown>, tree: ParamTree, add: Add): void {
  if (schema.type !== "object") {
    add({
      id: "schema-root-not-object",
      severity: "error",
      message:
        schema.type === undefined
          ? 'inputSchema has no "type": "object" at the root.'
          : `inputSchema's root type is ${JSON.stringify(schema.type)}, not "object".`,
      why: "Tool arguments are always a JSON object; the spec requires inputSchema to describe one, and model APIs reject other roots.",
      fix: 'Add "type": "object" at the root and describe the arguments under "properties".',
    });
  }
  if (tree.noParameters && tree.additionalProperties !== "forbidden") {
    add({
      id: "schema-no-params-open",
      severity: "info",
      message: "The tool takes no parameters but its schema accepts any object.",
      why: 'The spec recommends { "type": "object", "additionalProperties": false } for parameterless tools, so a model cannot invent arguments that are silently ignored.',
      fix: 'Add "additionalProperties": false to the inputSchema.',
    });
  }

  const refs = [...new Set(collectRefs(schema))];
  for (const ref of refs) {
    if (!isLocalRef(ref, schema)) {
      add({
        id: "schema-network-ref",
        severity: "error",
        message: `The schema references ${isNetworkRef(ref) ? "a network location" : "another document"}: ${ref}.`,
        why: "Clients must not fetch network $refs, so the schema cannot be validated and the parameters it points to cannot be documented.",
        fix: "Inline the referenced definitions under $defs and point at them with #/$defs/… refs.",
      });
    } else if (lookupRef(schema, ref) === undefined) {
      add({
        id: "schema-missing-ref",
        severity: "error",
        message: `The schema references ${ref}, which does not exist.`,
        why: "A $ref that resolves nowhere makes the schema uncompilable for validators.",
        fix: "Add the missing definition under $defs or fix the pointer.",
      });
    }
  }

  const rows: ParamRow[] = [];
  walkRows(tree.rows, (row) => rows.push(row));
  const undocumented = rows.filter(
    (r) => r.role === "property" && !r.description?.trim() && !r.title?.trim() && !r.cycleRef && r.type !== "(see above)",
  );
  if (undocumented.length > 0) {
    const names = undocumented.slice(0, 10).map((r) => r.path.slice(1) || r.name);
    add({
      id: "param-description-missing",
      severity: "warning",
      path: undocumented.length === 1 ? undocumented[0].path : undefined,
      message: `${undocumented.length} parameter${undocumented.length === 1 ? " has" : "s have"} no description: ${names.join(", ")}${undocumented.length > 10 ? ", …" : ""}.`,
      why: "The model fills arguments from the parameter descriptions; without them it guesses formats, units and meaning.",
      fix: "Describe each parameter: its meaning, format or units, and an example value.",
    });
  }

  const topNames = tree.rows.map((r) => r.name);
  const idParams = topNames.filter((n) => isIdName(n) && n.toLowerCase() !== "id");
  for (const row of rows) {
    if (row.role !== "property") continue;
    const lower = row.name.toLowerCase();
    let reason: string | undefined;
    let fix: string | undefined;
    // A generic name whose own description says what goes in it is clear enough (issue 26: `body` of create_issue,
    // "Details in Markdown: steps to reproduce…", was flagged): the model reads the two together.
    if (AMBIGUOUS_NAMES.has(lower) && !describesContent(row.description, lower)) {
      reason = `"${row.name}" says nothing about what goes in it.`;
      fix = "Use a name that states the content, e.g. query, issue_body, config_json.";
    } else if (ENTITY_NOUNS.has(lower) && !["object", "array"].some((t) => row.type.startsWith(t))) {
      reason = `"${row.name}" could be an id, a name, a handle or an email.`;
      fix = `Say which, e.g. ${lower}_id or ${lower}_name, and describe the format.`;
    } else if (lower === "id" && idParams.length > 0) {
      reason = `"${row.name}" sits next to ${idParams.join(", ")}: which entity's id is it?`;
      fix = "Name it after its entity, e.g. issue_id.";
    }
    if (reason) {
      add({
        id: "param-name-ambiguous",
        severity: "info",
        path: row.path,
        message: `Ambiguous parameter name: ${reason}`,
        why: "Models choose argument values from names first; vague names lead to wrong values.",
        fix: fix!,
      });
    }
    if (row.xMcpHeader !== undefined && SECRET_NAME.test(row.name)) {
      add({
        id: "header-on-secret",
        severity: "warning",
        path: row.path,
        message: `"${row.name}" looks sensitive but is mirrored into the Mcp-Param-${row.xMcpHeader} header.`,
        why: "x-mcp-header values are copied into HTTP headers visible to load balancers, proxies and their logs; the spec says sensitive parameters should not be marked.",
        fix: "Remove x-mcp-header from this parameter; route on a non-secret value instead.",
      });
    }
  }
}

const DEPRECATION_LINTS: Partial<Record<DeprecationId, { id: LintId; severity: Severity; message: string }>> = {
  logging: {
    id: "deprecated-logging",
    severity: "info",
    message: "The server declares the logging capability, deprecated in MCP 2026-07-28.",
  },
  "http-sse": {
    id: "deprecated-http-sse",
    severity: "warning",
    message: "The server speaks the HTTP+SSE transport of 2024-11-05, deprecated and the next to be removed.",
  },
};

/** Deprecated features the server declares: one finding each, worded from the specification's registry. */
function lintDeprecations(hints: ListHints): Finding[] {
  return serverDeprecations(hints).flatMap((d) => {
    const lint = DEPRECATION_LINTS[d.id];
    if (!lint) return [];
    return [{ ...lint, why: deprecationSentence(d), fix: `${d.migration[0].toUpperCase()}${d.migration.slice(1)}.` }];
  });
}

function lintListHints(hints: ListHints): Finding[] {
  const out: Finding[] = [];
  const ttl = hints.ttlMs;
  // 2025-11-25 and earlier have no ttlMs (issue 26: the lint fired on every legacy server); a value sent anyway is
  // still checked below.
  if (ttl === undefined && hints.era === "legacy") return out;
  if (ttl === undefined) {
    out.push({
      id: "ttl-missing",
      severity: "info",
      message: "tools/list carried no ttlMs, so the list is treated as immediately stale.",
      why: "Servers on 2026-07-28 must provide ttlMs; without it clients re-fetch every time or fall back to their own heuristics.",
      fix: "Return ttlMs (e.g. 300000 for 5 minutes) and cacheScope with tools/list.",
    });
  } else if (typeof ttl !== "number" || !Number.isFinite(ttl)) {
    out.push({
      id: "ttl-invalid",
      severity: "error",
      message: `ttlMs is ${JSON.stringify(ttl) ?? String(ttl)}, not a number.`,
      why: "ttlMs is an integer number of milliseconds; clients will ignore other values.",
      fix: "Send an integer ≥ 0.",
    });
  } else {
    if (ttl < 0) {
      out.push({
        id: "ttl-negative",
        severity: "error",
        message: `ttlMs is negative (${ttl}).`,
        why: "ttlMs must be ≥ 0; clients ignore a negative value and treat the list as immediately stale.",
        fix: "Send 0 for never cache, or a positive number of milliseconds.",
      });
    } else if (ttl > MAX_TTL_MS) {
      out.push({
        id: "ttl-too-long",
        severity: "warning",
        message: `ttlMs is ${ttl} (${(ttl / 3_600_000).toFixed(1)} h), longer than 24 hours.`,
        why: "Very long TTLs keep clients on stale tool lists; this playground caps freshness at 24 hours.",
        fix: "Use a shorter TTL and send notifications/tools/list_changed when tools change.",
      });
    }
    if (!Number.isInteger(ttl)) {
      out.push({
        id: "ttl-not-integer",
        severity: "warning",
        message: `ttlMs is not an integer (${ttl}).`,
        why: "ttlMs is defined as integer milliseconds; fractional values suggest a unit mix-up (seconds?).",
        fix: "Send whole milliseconds.",
      });
    } else if (ttl > 0 && ttl < 1000) {
      out.push({
        id: "ttl-not-integer",
        severity: "info",
        message: `ttlMs is only ${ttl} ms. Did you mean seconds?`,
        why: "ttlMs is in milliseconds; values under one second are unusual for a tool list and often a unit mix-up.",
        fix: `If you meant ${ttl} seconds, send ${ttl * 1000}.`,
      });
    }
  }
  const scope = hints.cacheScope;
  if (scope !== undefined && scope !== "public" && scope !== "private") {
    out.push({
      id: "cache-scope-invalid",
      severity: "warning",
      message: `cacheScope is ${JSON.stringify(scope)}; expected "public" or "private".`,
      why: "Shared caches decide whether a list may be served to other users from cacheScope.",
      fix: 'Send "public" when the list is the same for everyone, "private" when it depends on credentials.',
    });
  }
  return out;
}

// --- tool poisoning ---------------------------------------------------------------------------------

const IGNORE_INSTRUCTIONS =
  /\b(ignore|disregard|forget|override|bypass)\b[^.\n]{0,40}?\b(instructions?|prompts?|rules|guidelines|system (message|prompt)|directions)\b/i;
const IMPORTANT_TAG = /<\s*\/?\s*(important|system|instructions?|secret|hidden|admin)\b[^>]*>/i;
const FILE_ACCESS =
  /(~\/\.ssh|\.ssh\/|\bid_(rsa|ed25519|ecdsa)\b|\.aws\/credentials|\/etc\/(passwd|shadow)|\.netrc\b|\.npmrc\b|\.pypirc\b|\.kube\/config|\.git-credentials|\.docker\/config\.json|\bmcp\.json\b|\.env\b|\.bash_history|\.zsh_history)/i;
const SECRECY =
  /\b(do not|don't|dont|never|without)\s+(tell(ing)?|inform(ing)?|mention(ing)?|reveal(ing)?|notify(ing)?|show(ing)?|alert(ing)?|let(ting)?)\b[^.\n]{0,30}\buser\b|\buser\b[^.\n]{0,20}\b(must|should) not (know|see|be told)\b/i;

/** Invisible code points in a text (zero-width, bidi controls, tag characters…): one list, kept with the display rule. */
export { invisibleChars };

function lintPoisoning(tool: Tool, tree: ParamTree | undefined, add: Add): void {
  const texts: { where: string; text: string; path?: string }[] = [];
  const push = (where: string, text: unknown, path?: string) => {
    if (typeof text === "string" && text !== "") texts.push({ where, text, path });
  };
  push("name", tool?.name);
  push("title", tool?.title);
  push("description", tool?.description);
  push("annotations.title", tool?.annotations?.title);
  if (tree) {
    walkRows(tree.rows, (row) => {
      push(`parameter ${row.path.slice(1) || row.name} description`, row.description, row.path);
      push(`parameter ${row.path.slice(1) || row.name} title`, row.title, row.path);
      for (const v of row.enum ?? []) push(`parameter ${row.path.slice(1) || row.name} enum`, v, row.path);
      if (typeof row.default === "string") push(`parameter ${row.path.slice(1) || row.name} default`, row.default, row.path);
    });
  }
  const reported = new Set<string>();
  const once = (id: LintId, where: string, f: () => Omit<Finding, "toolName">) => {
    const key = `${id}|${where}`;
    if (reported.has(key)) return;
    reported.add(key);
    add(f());
  };
  for (const { where, text, path } of texts) {
    const hidden = invisibleChars(text);
    if (hidden.length > 0) {
      once("poison-invisible-chars", where, () => ({
        id: "poison-invisible-chars",
        severity: "error",
        path,
        message: `The ${where} contains invisible characters (${hidden.slice(0, 6).join(", ")}).`,
        why: "Zero-width, bidi-control and Unicode tag characters hide text from people while the model still reads it, a known way to smuggle instructions into tool metadata.",
        fix: "Remove them. If this is your server, check where the text came from.",
      }));
    }
    if (text.includes("<!--")) {
      once("poison-html-comment", where, () => ({
        id: "poison-html-comment",
        severity: "warning",
        path,
        message: `The ${where} contains an HTML comment (<!-- … -->).`,
        why: "Comments are hidden when descriptions are rendered as Markdown but are still sent to the model, so they can carry hidden instructions.",
        fix: "Remove the comment; everything in a description should be meant for both people and the model.",
      }));
    }
    if (IGNORE_INSTRUCTIONS.test(text)) {
      once("poison-ignore-instructions", where, () => ({
        id: "poison-ignore-instructions",
        severity: "error",
        path,
        message: `The ${where} tells the model to ignore or override other instructions.`,
        why: "This is the signature of prompt injection through tool metadata (tool poisoning): the text tries to take over the model's behaviour.",
        fix: "Do not connect this server to a model until the text is explained and removed.",
      }));
    }
    if (IMPORTANT_TAG.test(text)) {
      once("poison-important-tag", where, () => ({
        id: "poison-important-tag",
        severity: "warning",
        path,
        message: `The ${where} contains a pseudo-tag such as <IMPORTANT> or <system>.`,
        why: "Tags like these are used in published tool-poisoning attacks to make injected text look authoritative to the model.",
        fix: "Use plain sentences; descriptions should describe the tool, not address the model with special markup.",
      }));
    }
    if (FILE_ACCESS.test(text)) {
      once("poison-file-access", where, () => ({
        id: "poison-file-access",
        severity: "error",
        path,
        message: `The ${where} mentions sensitive files (${FILE_ACCESS.exec(text)![0]}).`,
        why: "Poisoned tools ask the model to read SSH keys, credentials or MCP config and pass them as arguments, exfiltrating them to the server.",
        fix: "Treat the server as untrusted; a tool description has no reason to mention these files.",
      }));
    }
    if (SECRECY.test(text)) {
      once("poison-secrecy", where, () => ({
        id: "poison-secrecy",
        severity: "error",
        path,
        message: `The ${where} asks the model to keep something from the user.`,
        why: "Legitimate tools have nothing to hide from the user; instructions to stay quiet are a hallmark of tool poisoning.",
        fix: "Treat the server as untrusted and review the full description.",
      }));
    }
  }
}
