/**
 * "Will be sent": the request in the editor as it will cross the wire, computed in the browser from the same
 * functions the playground and the proxy apply when sending (playground `_meta` → proxy stamping → transport
 * headers → `Mcp-Param-*` mirroring → the user's header overrides), so nothing here is a second implementation.
 */
import { applyEdits, modify } from "jsonc-parser";
import type { Era, Tool, UserHeaders } from "../mcp/contract.ts";
import { clientCapabilities, proxyRequestId, stampMessage } from "../mcp/meta.ts";
import { maskValue } from "../mcp/secrets.ts";
import {
  applyHeaderOverrides,
  contentHeaders,
  MAX_HEADER_OVERRIDES,
  overrideNameProblem,
  overrideValueProblem,
  transportMcpHeaders,
  withDecoded,
} from "../mcp/wire-headers.ts";
import { mirroredParamHeaders } from "../mcp/x-mcp-header.ts";
import { withPlaygroundMeta, type LogLevelChoice } from "./notifications.ts";
import { isObject } from "../json/guards.ts";
import { escapeToken, parsePointer } from "../json/pointer.ts";
import { parseMessage } from "./parse-message.ts";

export interface PreviewInput {
  /** The editor text. */
  text: string;
  era: Era;
  /**
   * `http`: Streamable HTTP. `sse`: the deprecated HTTP+SSE transport (legacy servers), where the body is POSTed to the
   * endpoint the server's event stream names. stdio servers get the body on stdin: no HTTP request, no headers.
   */
  transport: "http" | "sse" | "stdio";
  /** The endpoint as shown to people (the demo's public URL). */
  endpoint: string;
  protocolVersion: string;
  sessionId?: string;
  tools: readonly Tool[];
  /** The user's own headers: only their names are shown, values masked. */
  userHeaders: UserHeaders;
  overrides?: Record<string, string>;
  /** The log level the playground asks modern servers for (default: notifications.ts `DEFAULT_LOG_LEVEL`). */
  logLevel?: LogLevelChoice;
  /** The id the proxy would give a request without one (default: the proxy's own generator). */
  nextId?: () => string | number;
  /** false when the connection declares no MCP Apps extension (ConnectionDescriptor.apps). */
  apps?: boolean;
}

/** One body field the user did not write. `by` says who adds it. */
export interface PreviewAddition {
  /** JSON pointer into the body. */
  pointer: string;
  value: unknown;
  by: "playground" | "proxy";
}

export type HeaderKind = "content" | "protocol" | "param" | "session" | "user";

export interface PreviewHeader {
  name: string;
  value: string;
  /** What a `=?base64?…?=` value decodes to. */
  decoded?: string;
  kind: HeaderKind;
  /** Set when the user's override replaced (or added) this header; `replaced` is the derived value. */
  overridden?: { replaced?: string };
}

export type SendPreview =
  /** `blocked`: Send refuses the text too; otherwise only the preview has nothing to show (no method). */
  | { ok: false; problem: string; blocked?: boolean }
  | {
      ok: true;
      body: Record<string, unknown>;
      added: PreviewAddition[];
      /** Absent on stdio. On HTTP+SSE the URL is the stream's endpoint, known only once the stream is open (`endpointNote`). */
      http?: { method: "POST"; url: string; headers: PreviewHeader[]; endpointNote?: string };
    };

function kindOf(name: string): HeaderKind {
  const lower = name.toLowerCase();
  if (lower.startsWith("mcp-param-")) return "param";
  if (lower === "mcp-session-id") return "session";
  if (lower === "content-type" || lower === "accept") return "content";
  return "protocol";
}

/**
 * The preview for the editor text; a text Send refuses says why in the words Send uses (parseMessage: what, where,
 * and that it will not be sent until fixed).
 */
export function buildSendPreview(input: PreviewInput): SendPreview {
  const message = parseMessage(input.text);
  if (!message.ok) return { ok: false, problem: message.error, blocked: true };
  const parsed = message.value;
  if (typeof parsed.method !== "string")
    return { ok: false, problem: 'Give the message a "method" to see the preview: the proxy sends requests and notifications.' };

  const playground = withPlaygroundMeta(parsed, input.era, input.logLevel);
  const stamped = stampMessage(playground.message, input.era, input.nextId ?? proxyRequestId, clientCapabilities(input.apps !== false));
  const added: PreviewAddition[] = [
    ...playground.added.map((a) => ({ pointer: a.name, value: a.value, by: "playground" as const })),
    ...stamped.added.map((a) => ({ pointer: a.name, value: a.value, by: "proxy" as const })),
  ];
  const body = stamped.message;
  if (input.transport === "stdio") return { ok: true, body, added };

  const name = isObject(body.params) ? body.params.name : undefined;
  const tool = body.method === "tools/call" && typeof name === "string" ? input.tools.find((t) => t.name === name) : undefined;
  const sse = input.transport === "sse";
  const derived: [string, string][] = [
    ...contentHeaders(sse ? "sse" : "streamable"),
    ...transportMcpHeaders(body, { ...input, sse }),
    ...Object.entries(mirroredParamHeaders(body, input.era, tool)),
  ];
  const { headers: sent, overridden } = applyHeaderOverrides(derived, input.overrides ?? {});
  const byName = new Map(overridden.map((o) => [o.name.toLowerCase(), o]));
  const headers: PreviewHeader[] = sent.map(([n, v]) => {
    const o = byName.get(n.toLowerCase());
    return {
      name: n,
      ...withDecoded(v),
      kind: kindOf(n),
      ...(o ? { overridden: o.replaced !== undefined ? { replaced: o.replaced } : {} } : {}),
    };
  });
  const taken = new Set(headers.map((h) => h.name.toLowerCase()));
  for (const [n, v] of Object.entries(input.userHeaders))
    if (!taken.has(n.toLowerCase())) headers.push({ name: n, value: maskValue(v), kind: "user" });
  const endpointNote = sse
    ? "HTTP+SSE: each send opens a session (GET the event stream, initialize); this POST goes to the endpoint the stream names, and the answer arrives on the stream."
    : undefined;
  return { ok: true, body, added, http: { method: "POST", url: input.endpoint, headers, ...(endpointNote ? { endpointNote } : {}) } };
}

/** A JSON pointer's tokens (`~1` → `/`, `~0` → `~`). */
export function pointerPath(pointer: string): string[] {
  return parsePointer(pointer) ?? [];
}

/**
 * The editor text with an added field written into it (the user's value then wins: neither the playground nor the
 * proxy touches a field that is there). Formatting follows the editor's two-space indent.
 */
export function writeIntoRequest(text: string, pointer: string, value: unknown): string {
  const edits = modify(text, pointerPath(pointer), value, { formattingOptions: { insertSpaces: true, tabSize: 2, eol: "\n" } });
  return applyEdits(text, edits);
}

/** One line of the pretty-printed body; `added` when it belongs to a field the user did not write. */
export interface PreviewLine {
  text: string;
  added: boolean;
}

/**
 * The body as `JSON.stringify(body, null, 2)` prints it, line by line, with the added fields' lines marked; an object
 * or array all of whose members were added (a `_meta` the user did not write) is marked as a whole.
 */
export function previewLines(body: unknown, addedPointers: ReadonlySet<string>): PreviewLine[] {
  /**
   * Returns the lines of `value`, whether they are all added, and whether `value` itself was reported added. A
   * container whose every member was reported added (a wholly new `_meta`) is marked with its braces; one that only
   * holds such a container (the user's own `params`) is not.
   */
  const walk = (
    value: unknown,
    indent: string,
    prefix: string,
    pointer: string,
    suffix: string,
    inAdded: boolean,
  ): { lines: PreviewLine[]; added: boolean; reported: boolean } => {
    const reported = inAdded || addedPointers.has(pointer);
    const entries: [string, unknown][] | undefined = Array.isArray(value)
      ? value.map((v, i) => [String(i), v])
      : isObject(value)
        ? Object.entries(value)
        : undefined;
    if (!entries || entries.length === 0)
      return {
        lines: [{ text: `${indent}${prefix}${JSON.stringify(value) ?? "null"}${suffix}`, added: reported }],
        added: reported,
        reported,
      };
    const [open, close] = Array.isArray(value) ? ["[", "]"] : ["{", "}"];
    const children = entries.map(([k, v], i) =>
      walk(
        v,
        `${indent}  `,
        Array.isArray(value) ? "" : `${JSON.stringify(k)}: `,
        `${pointer}/${escapeToken(k)}`,
        i < entries.length - 1 ? "," : "",
        reported,
      ),
    );
    const whole = reported || (pointer !== "" && children.every((c) => c.reported));
    return {
      lines: [
        { text: `${indent}${prefix}${open}`, added: whole },
        ...children.flatMap((c) => c.lines),
        { text: `${indent}${close}${suffix}`, added: whole },
      ],
      added: whole,
      reported,
    };
  };
  return walk(body, "", "", "", "", false).lines;
}

/** A header override as typed in the preview (possibly not valid yet). */
export interface OverrideDraft {
  name: string;
  value: string;
}

/** The valid overrides to send, and per draft what is wrong with it (undefined when fine). Invalid drafts are not sent. */
export function overrideMap(drafts: readonly OverrideDraft[]): { overrides: Record<string, string>; problems: (string | undefined)[] } {
  const overrides: Record<string, string> = {};
  const seen = new Set<string>();
  const problems = drafts.map((d, i) => {
    const name = d.name.trim();
    const problem =
      (i >= MAX_HEADER_OVERRIDES ? `At most ${MAX_HEADER_OVERRIDES} headers can be overridden.` : undefined) ??
      overrideNameProblem(name) ??
      overrideValueProblem(name, d.value) ??
      (seen.has(name.toLowerCase()) ? `${name} is overridden above already.` : undefined);
    seen.add(name.toLowerCase());
    if (!problem) overrides[name] = d.value;
    return problem;
  });
  return { overrides, problems };
}
