/**
 * An MCP App's view as `resources/read` returns it (ext-apps specification 2026-01-26, "UI Resource Format"): the
 * HTML and what the resource declares for it (`_meta.ui`: CSP domains, permissions, a dedicated domain, a border
 * preference). The content item's `_meta.ui` wins over the `resources/list` entry's, as the specification says hosts
 * must check both. Anything that cannot be shown gets a problem that says what is wrong and what to change, to stand
 * in place of the frame: nothing hangs and nothing half-renders.
 */
import { isObject } from "../../json/guards.ts";
import { APP_RESOURCE_SCHEME } from "./tool-app.ts";

/** The MIME type an app's HTML must carry. */
export const APP_MIME_TYPE = "text/html;profile=mcp-app";
/** Views larger than this are not shown unless the operator raises it (the largest published example is 4.3 MB). */
export const DEFAULT_MAX_APP_HTML_BYTES = 8 * 1024 * 1024;

export interface AppView {
  uri: string;
  html: string;
  /** The HTML's size in bytes of UTF-8 (what TOOLSCOPE_MAX_APP_HTML_BYTES bounds). */
  bytes: number;
  /** `_meta.ui.csp` as declared (built into a policy by app-csp.ts). */
  csp: unknown;
  /** Permission names requested (`camera`, `microphone`, `geolocation`, `clipboardWrite`): shown, granted only after consent. */
  permissions: string[];
  domain?: string;
  prefersBorder?: boolean;
}

export type AppViewResult = { ok: true; view: AppView } | { ok: false; problem: string };

const PERMISSIONS = ["camera", "microphone", "geolocation", "clipboardWrite"] as const;

/** The MIME type without parameters' spacing and case differences (`text/html; profile=mcp-app` is the same type). */
function sameType(mimeType: unknown): boolean {
  if (typeof mimeType !== "string") return false;
  const [type, ...params] = mimeType.split(";").map((p) => p.trim().toLowerCase());
  return type === "text/html" && params.some((p) => p.replace(/\s+/g, "") === "profile=mcp-app");
}

/** UTF-8 bytes of a string, counted without allocating them. */
function utf8Length(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

function decodeBase64(blob: string): string | undefined {
  try {
    const bin = atob(blob.replace(/\s+/g, ""));
    const bytes = Uint8Array.from(bin, (ch) => ch.charCodeAt(0));
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * The view in a `resources/read` result for `uri`, or the problem that keeps it from being shown. `listed` is the
 * resource's `resources/list` entry when the host has one.
 */
export function appView(result: unknown, uri: string, options: { maxBytes: number; listed?: unknown }): AppViewResult {
  if (!uri.startsWith(APP_RESOURCE_SCHEME))
    return {
      ok: false,
      problem: `The tool points at "${uri.slice(0, 200)}", which is not a ${APP_RESOURCE_SCHEME} resource: no app can be shown.`,
    };
  const contents = isObject(result) && Array.isArray(result.contents) ? result.contents : undefined;
  if (!contents) return { ok: false, problem: `resources/read of ${uri} returned no contents list.` };
  const item = contents.find((c) => isObject(c) && c.uri === uri) ?? (contents.length === 1 ? contents[0] : undefined);
  if (!isObject(item)) return { ok: false, problem: `resources/read of ${uri} returned ${contents.length} contents, none for that URI.` };
  if (!sameType(item.mimeType))
    return {
      ok: false,
      problem: `The app resource ${uri} is ${typeof item.mimeType === "string" ? `of type "${item.mimeType.slice(0, 100)}"` : "without a MIME type"}; an app's view must be ${APP_MIME_TYPE}.`,
    };
  const encoded = typeof item.blob === "string" ? item.blob : undefined;
  if (encoded !== undefined && encoded.length > Math.ceil(options.maxBytes / 3) * 4 + 4)
    return { ok: false, problem: tooLarge(uri, Math.floor((encoded.length * 3) / 4), options.maxBytes) };
  const html = typeof item.text === "string" ? item.text : encoded !== undefined ? decodeBase64(encoded) : undefined;
  if (html === undefined)
    return {
      ok: false,
      problem:
        encoded !== undefined
          ? `The app resource ${uri} has a blob that is not base64 of UTF-8 text.`
          : `The app resource ${uri} has neither text nor blob.`,
    };
  const bytes = utf8Length(html);
  if (bytes > options.maxBytes) return { ok: false, problem: tooLarge(uri, bytes, options.maxBytes) };
  if (!/<[a-z!]/i.test(html)) return { ok: false, problem: `The app resource ${uri} holds no HTML markup (${bytes} bytes of text).` };
  const ui = uiMeta(item) ?? uiMeta(options.listed) ?? {};
  const permissions = isObject(ui.permissions) ? PERMISSIONS.filter((p) => isObject((ui.permissions as Record<string, unknown>)[p])) : [];
  return {
    ok: true,
    view: {
      uri,
      html,
      bytes,
      csp: ui.csp,
      permissions,
      ...(typeof ui.domain === "string" ? { domain: ui.domain } : {}),
      ...(typeof ui.prefersBorder === "boolean" ? { prefersBorder: ui.prefersBorder } : {}),
    },
  };
}

function uiMeta(value: unknown): Record<string, unknown> | undefined {
  return isObject(value) && isObject(value._meta) && isObject(value._meta.ui) ? value._meta.ui : undefined;
}

function tooLarge(uri: string, bytes: number, max: number): string {
  return `The app resource ${uri} is ${bytes.toLocaleString("en-US")} bytes; views above ${max.toLocaleString("en-US")} bytes are not shown (TOOLSCOPE_MAX_APP_HTML_BYTES).`;
}
