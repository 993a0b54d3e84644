/**
 * Sharing a collection by link: the collection file's own text (writeCollection: byte-stable) deflated into the URL
 * fragment as `#c1.<base64url(deflate(text))>`, beside share-codec's experiment links (`#v1.…`, which this prefix
 * cannot be mistaken for). The fragment never reaches a server. The bytes helpers and bounds are share-codec's, so
 * both kinds of link are read with the same care: prefix, alphabet, compressed and unpacked sizes are checked before
 * anything is parsed, and the text is then read by parseCollection, as a file would be.
 *
 * No secrets: the format cannot hold header values (only their names), the server URL loses its credentials
 * (shareableServerUrl), and a collection whose requests, prepared answers or variables hold a string that looks like
 * a credential (lib/mcp/secrets.ts's token rule) is refused, naming the call and the JSON pointer, rather than shared.
 */
import { deflateSync } from "fflate";
import { isObject } from "../json/guards.ts";
import { appendPointer, buildPointer } from "../json/pointer.ts";
import { looksLikeSecretValue } from "../mcp/secrets.ts";
import {
  fromBase64Url,
  inflateCapped,
  MAX_SHARE_FRAGMENT_CHARS,
  shareableServerUrl,
  ShareLinkError,
  toBase64Url,
} from "../share/share-codec.ts";
import type { Collection } from "./format.ts";
import { parseCollection, type CollectionProblem } from "./parse-collection.ts";
import { writeCollection } from "./write-collection.ts";

export const COLLECTION_SHARE_VERSION = "c1";
/** Largest collection text a link carries (once unpacked); bigger ones are shared as files. */
export const MAX_COLLECTION_SHARE_BYTES = 256 * 1024;
/** Largest fragment read (characters after the prefix): the experiment links' bound. */
export const MAX_COLLECTION_SHARE_FRAGMENT_CHARS = MAX_SHARE_FRAGMENT_CHARS;

const KB = 1024;
/** Deepest nesting the secret scan walks (a collection from parseCollection is JSON: finite, but may be deep). */
const MAX_SCAN_DEPTH = 64;

/** A credential written out in a phrase ("Bearer abc…", "token ghp_…"): the value rule tests words of text too. */
const SCHEME_CREDENTIAL = /\b(?:Bearer|Basic|Token|DPoP)\s+[A-Za-z0-9._~+/=-]{8,}/i;

/** True when `text` is, or contains as a word, something that looks like a credential. */
function holdsSecret(text: string): boolean {
  if (looksLikeSecretValue(text) || SCHEME_CREDENTIAL.test(text)) return true;
  // Words of 16+ characters, as maskServerText reads them: shorter runs are too often ordinary identifiers.
  return text.split(/\s+/).some((word) => {
    const bare = word.replace(/^[("'“‘[{<]+|[)"'”’\]}>.,;:!?]+$/g, "");
    return bare.length >= 16 && looksLikeSecretValue(bare);
  });
}

/** The pointer of the first string in `value` (keys included) that looks like a credential, or undefined. */
function findSecret(value: unknown, pointer: string, depth = 0): string | undefined {
  if (typeof value === "string") return holdsSecret(value) ? pointer : undefined;
  if (depth > MAX_SCAN_DEPTH) return undefined;
  const entries: [string | number, unknown][] = Array.isArray(value)
    ? value.map((v, i) => [i, v])
    : isObject(value)
      ? Object.entries(value)
      : [];
  for (const [key, child] of entries) {
    const at = appendPointer(pointer, key);
    if (typeof key === "string" && holdsSecret(key)) return at;
    const found = findSecret(child, at, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

function refuseSecret(where: string, pointer: string): never {
  throw new ShareLinkError(
    "invalid",
    `Not shared: ${where} holds what looks like a credential at ${pointer}. A link must carry no secrets: remove it (or take it from an earlier call's answer with a capture and a {{variable}}), then share again.`,
  );
}

/** `3:17: message`, with how many more problems there are. */
function firstProblem(problems: readonly CollectionProblem[]): string {
  const p = problems[0];
  const more = problems.length > 1 ? ` (and ${problems.length - 1} more problem${problems.length > 2 ? "s" : ""})` : "";
  return p ? `${p.line}:${p.column}: ${p.message}${more}` : "no collection";
}

/** The collection as it will be shared: its server URL without credentials. Throws "invalid" for a secret. */
function shareable(c: Collection): Collection {
  const env = c.environment;
  const out: Collection = env?.server === undefined ? c : { ...c, environment: { ...env, server: shareableServerUrl(env.server) } };
  const variable = findSecret(out.environment?.variables, buildPointer(["environment", "variables"]));
  if (variable !== undefined) refuseSecret("an environment variable", variable);
  const header = findSecret(out.environment?.headers, buildPointer(["environment", "headers"]));
  if (header !== undefined) refuseSecret("a header name", header);
  out.calls.forEach((call, i) => {
    for (const member of ["request", "answers"] as const) {
      const found = findSecret(call[member], buildPointer(["calls", i, member]));
      if (found !== undefined) refuseSecret(`call ${JSON.stringify(call.name)}`, found);
    }
  });
  return out;
}

/**
 * The fragment text (without `#`) for a collection: `c1.<data>`. Throws a {@link ShareLinkError}: "invalid" when a
 * request, prepared answer or variable holds what looks like a credential, or the collection is not valid;
 * "too-large" past MAX_COLLECTION_SHARE_BYTES or the fragment bound.
 */
export function encodeCollectionShare(c: Collection): string {
  const text = writeCollection(shareable(c));
  // A link that decodeCollectionShare would refuse is not worth making.
  const parsed = parseCollection(text);
  if (!parsed.ok)
    throw new ShareLinkError(
      "invalid",
      `Not shared: the collection is not valid (${firstProblem(parsed.problems)}). Fix it, then share again.`,
    );
  const bytes = new TextEncoder().encode(text);
  if (bytes.length > MAX_COLLECTION_SHARE_BYTES)
    throw new ShareLinkError(
      "too-large",
      `This collection is ${Math.ceil(bytes.length / KB)} KB, more than a link may carry (${MAX_COLLECTION_SHARE_BYTES / KB} KB); share the file instead.`,
    );
  const data = toBase64Url(deflateSync(bytes, { level: 9 }));
  if (data.length > MAX_COLLECTION_SHARE_FRAGMENT_CHARS)
    throw new ShareLinkError(
      "too-large",
      `This collection does not compress into a link (${Math.ceil(data.length / KB)} K characters, at most ${MAX_COLLECTION_SHARE_FRAGMENT_CHARS / KB} K); share the file instead.`,
    );
  return `${COLLECTION_SHARE_VERSION}.${data}`;
}

/** True when a URL fragment looks like a collection link of any version (`#c<digits>.`). */
export function isCollectionShareFragment(fragment: string): boolean {
  return /^#?c\d+\./.test(fragment);
}

/** Read a fragment (with or without `#`) into a collection, or throw a {@link ShareLinkError} saying what is wrong. */
export function decodeCollectionShare(fragment: string): Collection {
  const text = fragment.startsWith("#") ? fragment.slice(1) : fragment;
  const m = /^c(\d+)\.(.*)$/s.exec(text);
  if (!m) throw new ShareLinkError("not-a-share", "This is not a Toolscope collection link (it should end in #c1.…).");
  if (`c${m[1]}` !== COLLECTION_SHARE_VERSION)
    throw new ShareLinkError(
      "unknown-version",
      `This collection link was made by a newer or unknown Toolscope (format c${m[1]}); this version reads ${COLLECTION_SHARE_VERSION} links only. Update Toolscope, or ask for the collection file.`,
    );
  if (m[2].length === 0) throw new ShareLinkError("corrupt", "The link is damaged: it carries no data.");
  if (m[2].length > MAX_COLLECTION_SHARE_FRAGMENT_CHARS)
    throw new ShareLinkError("too-large", "The link is too long to be a Toolscope collection link, so it was not opened.");
  const bytes = inflateCapped(
    fromBase64Url(m[2]),
    MAX_COLLECTION_SHARE_BYTES,
    `The shared collection is larger than ${MAX_COLLECTION_SHARE_BYTES / KB} KB once unpacked, so it was not opened; ask for the file instead.`,
  );
  let json: string;
  try {
    json = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new ShareLinkError("corrupt", "The link is damaged: its content is not UTF-8 text.");
  }
  const parsed = parseCollection(json);
  if (!parsed.ok)
    throw new ShareLinkError(
      "invalid",
      `The shared collection cannot be read: ${firstProblem(parsed.problems)}. Ask whoever shared it for a new link or the file.`,
    );
  const c = parsed.collection;
  // Stripped again on the way in: the link is untrusted, and a URL with credentials must not be shown or stored.
  if (c.environment?.server === undefined) return c;
  return { ...c, environment: { ...c.environment, server: shareableServerUrl(c.environment.server) } };
}

/** The full link for a collection, e.g. `https://toolscope.dev/playground#c1.…`. */
export function collectionShareUrl(origin: string, c: Collection): string {
  return `${origin.replace(/\/+$/, "")}/playground#${encodeCollectionShare(c)}`;
}
