/**
 * Share links: an experiment (server URL, era, the request text, optionally the response) in the URL fragment,
 * as `#v1.<base64url(deflate(JSON))>`. The fragment never reaches a server, so nothing is stored by us.
 * Only non-default fields are written (the demo server is the default). Decoding treats the link as untrusted:
 * version prefix, alphabet, compressed and decompressed sizes are checked before anything is parsed, and the
 * result is validated into a typed value. Header values and credentials are never part of the payload.
 */
import { deflateSync, Inflate } from "fflate";
import { redactServerUrl } from "../mcp/secrets.ts";

export type ShareEra = "modern" | "legacy";

export interface SharedExperiment {
  /** An http(s) URL or `builtin:<id>`. */
  server: string;
  era?: ShareEra;
  /** The request text as it was in the editor. */
  request: string;
  /** The response, when the sharer chose to include it. */
  response?: unknown;
}

export const SHARE_VERSION = "v1";
/** The server a link names when it names none. */
export const DEFAULT_SHARE_SERVER = "builtin:demo";
/** Largest payload after decompression; bigger links are refused without being expanded further. */
export const MAX_SHARE_DECODED_BYTES = 256 * 1024;
/** Largest fragment read (characters after the version prefix). */
export const MAX_SHARE_FRAGMENT_CHARS = 128 * 1024;

export type ShareErrorReason = "not-a-share" | "unknown-version" | "corrupt" | "too-large" | "invalid";

/** Why a link could not be read (or an experiment could not be encoded), with a message for people. */
export class ShareLinkError extends Error {
  constructor(
    readonly reason: ShareErrorReason,
    message: string,
  ) {
    super(message);
    this.name = "ShareLinkError";
  }
}

/** Payload keys on the wire (short, to keep links short). */
interface WireV1 {
  s?: string;
  e?: ShareEra;
  r: string;
  p?: unknown;
}

/**
 * A server URL safe to put in a link: credentials removed by the one rule in lib/mcp/secrets.ts
 * ({@link redactServerUrl}: no user:password, fragment, or credential-looking query parameter or path segment),
 * then normalised. Only http(s) URLs and `builtin:` names can be shared.
 */
export function shareableServerUrl(url: string): string {
  if (/^builtin:[a-z0-9-]+$/.test(url)) return url;
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new ShareLinkError("invalid", "The server URL is not a valid URL.");
  }
  if (u.protocol !== "http:" && u.protocol !== "https:")
    throw new ShareLinkError("invalid", `Only http(s) servers can be shared, not ${u.protocol}`);
  return new URL(redactServerUrl(u.toString())).toString();
}

/** Bytes as base64url without padding (the alphabet a URL fragment carries as is). Shared with collection links. */
export function toBase64Url(bytes: Uint8Array): string {
  let bin = "";
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** The bytes of base64url text; throws a "corrupt" {@link ShareLinkError} on characters or a length it never has. */
export function fromBase64Url(text: string): Uint8Array {
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1)
    throw new ShareLinkError(
      "corrupt",
      "The link is damaged: its data contains characters a share link never has (was it cut or edited?).",
    );
  const bin = atob(text.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (text.length % 4)) % 4));
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
}

/**
 * Inflate in small steps and give up as soon as the output passes `cap` (a zip bomb costs us ~nothing). Past the
 * cap it throws "too-large" with `tooLarge` as the message (collection links say what they carry).
 */
export function inflateCapped(
  data: Uint8Array,
  cap: number,
  tooLarge = `The shared experiment is larger than ${MAX_SHARE_DECODED_BYTES / 1024} KB once unpacked, so it was not opened.`,
): Uint8Array {
  const chunks: Uint8Array[] = [];
  let total = 0;
  let over = false;
  let done = false;
  const inflater = new Inflate((chunk, final) => {
    total += chunk.length;
    if (total > cap) over = true;
    else chunks.push(chunk);
    if (final) done = true;
  });
  const STEP = 512;
  try {
    for (let i = 0; i < data.length && !over; i += STEP) inflater.push(data.subarray(i, i + STEP), i + STEP >= data.length);
  } catch {
    throw new ShareLinkError("corrupt", "The link is damaged: its data does not decompress (was it cut short?).");
  }
  if (over) throw new ShareLinkError("too-large", tooLarge);
  if (!done) throw new ShareLinkError("corrupt", "The link is damaged: its data ends too early (was it cut short?).");
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/** Encode an experiment as a fragment payload `v1.<data>` (without `#`). Throws "too-large" past the decode cap. */
export function encodeShare(exp: SharedExperiment): string {
  const wire: WireV1 = { r: exp.request };
  const server = shareableServerUrl(exp.server);
  if (server !== DEFAULT_SHARE_SERVER) wire.s = server;
  if (exp.era) wire.e = exp.era;
  if (exp.response !== undefined) wire.p = exp.response;
  const json = new TextEncoder().encode(JSON.stringify(wire));
  if (json.length > MAX_SHARE_DECODED_BYTES) {
    throw new ShareLinkError(
      "too-large",
      `This experiment is ${Math.ceil(json.length / 1024)} KB, more than a link may carry (${MAX_SHARE_DECODED_BYTES / 1024} KB)${exp.response !== undefined ? "; share it without the response" : ""}.`,
    );
  }
  return `${SHARE_VERSION}.${toBase64Url(deflateSync(json, { level: 9 }))}`;
}

/** True when a URL fragment looks like a share link of any version (`#v<digits>.`). */
export function isShareFragment(fragment: string): boolean {
  return /^#?v\d+\./.test(fragment);
}

/** Decode a fragment (with or without `#`) into a typed experiment, or throw a {@link ShareLinkError}. */
export function decodeShare(fragment: string): SharedExperiment {
  const text = fragment.startsWith("#") ? fragment.slice(1) : fragment;
  const m = /^v(\d+)\.(.*)$/s.exec(text);
  if (!m) throw new ShareLinkError("not-a-share", "This is not a Toolscope share link (it should end in #v1.…).");
  if (`v${m[1]}` !== SHARE_VERSION)
    throw new ShareLinkError(
      "unknown-version",
      `This link was made by a newer or unknown Toolscope (format v${m[1]}); this version reads ${SHARE_VERSION} links only.`,
    );
  if (m[2].length === 0) throw new ShareLinkError("corrupt", "The link is damaged: it carries no data.");
  if (m[2].length > MAX_SHARE_FRAGMENT_CHARS)
    throw new ShareLinkError("too-large", "The link is too long to be a Toolscope share link, so it was not opened.");
  const json = inflateCapped(fromBase64Url(m[2]), MAX_SHARE_DECODED_BYTES);
  let wire: unknown;
  try {
    wire = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(json));
  } catch {
    throw new ShareLinkError("corrupt", "The link is damaged: its content is not valid JSON.");
  }
  return fromWire(wire);
}

function fromWire(wire: unknown): SharedExperiment {
  if (typeof wire !== "object" || wire === null || Array.isArray(wire))
    throw new ShareLinkError("invalid", "The link's content is not an experiment.");
  const w = wire as Record<string, unknown>;
  if (typeof w.r !== "string") throw new ShareLinkError("invalid", "The link carries no request.");
  if (w.s !== undefined && typeof w.s !== "string") throw new ShareLinkError("invalid", "The link's server is not a string.");
  if (w.e !== undefined && w.e !== "modern" && w.e !== "legacy")
    throw new ShareLinkError("invalid", `The link's protocol era ${JSON.stringify(w.e)} is not modern or legacy.`);
  const server = shareableServerUrl(typeof w.s === "string" ? w.s : DEFAULT_SHARE_SERVER);
  return { server, request: w.r, ...(w.e ? { era: w.e as ShareEra } : {}), ...(w.p !== undefined ? { response: w.p } : {}) };
}

/** The full link for an experiment, e.g. `https://toolscope.dev/playground#v1.…`. */
export function shareUrl(origin: string, exp: SharedExperiment): string {
  return `${origin.replace(/\/+$/, "")}/playground#${encodeShare(exp)}`;
}
