/**
 * Sharing a collection by link: the collection file's own text (writeCollection: byte-stable) deflated into the URL
 * fragment as `#c1.<base64url(deflate(text))>`, beside share-codec's experiment links (`#v1.…`, which this prefix
 * cannot be mistaken for). The fragment never reaches a server. The bytes helpers and bounds are share-codec's, so
 * both kinds of link are read with the same care: prefix, alphabet, compressed and unpacked sizes are checked before
 * anything is parsed, and the text is then read by parseCollection, as a file would be.
 *
 * No secrets: the format cannot hold header values (only their names), the server URL loses its credentials
 * (shareableServerUrl), and a collection whose requests, prepared answers, variables, expectations or capture
 * pointers hold a string that looks like a credential (lib/mcp/secrets.ts's token rule) is refused, naming the call
 * and the JSON pointer, rather than shared. Expectations are scanned too because "Expect this" copies them from
 * answers, and an answer can carry a key ("Signed in with sk-…"). The rule cannot tell a token from a hex digest or
 * another random-looking id an answer holds, so those are refused as well: the message says to share the file.
 */
import { deflateSync } from "fflate";
import { isObject } from "../json/guards.ts";
import { appendPointer, buildPointer, parsePointer } from "../json/pointer.ts";
import { looksLikeSecretValue } from "../mcp/secrets.ts";
import {
  fromBase64Url,
  inflateCapped,
  MAX_SHARE_FRAGMENT_CHARS,
  shareableServerUrl,
  ShareLinkError,
  toBase64Url,
} from "../share/share-codec.ts";
import type { Collection, Expectation } from "./format.ts";
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

/**
 * True when `text` is, or contains as a word, something that looks like a credential: the rule a link refuses by.
 * Exported so that "Expect this" (propose-expectations.ts) never proposes what a link would then refuse.
 */
export function holdsSecret(text: string): boolean {
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

/**
 * The pointer `at` when a JSON pointer the collection holds has a token that looks like a credential (pointers are
 * made of an answer's member names), or undefined. A pointer is read token by token, never as one string: a long
 * `/result/content/0/text/items/1/id` switches between letters and digits like a token does.
 */
function findSecretInPointer(pointer: unknown, at: string): string | undefined {
  if (typeof pointer !== "string") return findSecret(pointer, at);
  const tokens = parsePointer(pointer);
  // Not a pointer (a {{placeholder}}, a typo): read as text, as any other string is.
  if (!tokens) return holdsSecret(pointer) ? at : undefined;
  return tokens.some(holdsSecret) ? at : undefined;
}

/** Regular-expression syntax: `^sk-…$` or `key=(sk-…)` hides a token's word from the text rule. */
const REGEX_SYNTAX = /[\\^$.*+?()[\]{}|=]/g;

/** The pointer `at` when a pattern holds a credential, read as text and with its regex syntax taken for spaces. */
function findSecretInPattern(pattern: unknown, at: string): string | undefined {
  if (typeof pattern !== "string") return findSecret(pattern, at);
  return holdsSecret(pattern) || holdsSecret(pattern.replace(REGEX_SYNTAX, " ")) ? at : undefined;
}

/**
 * The first place in an expectation that looks like a credential: every member (`value`, `text`, `recorded`,
 * `schema`, …) as data, `pattern` also without its regex syntax, pointers and `volatile`'s pointers token by token.
 */
function findSecretInExpectation(e: Expectation, at: string): string | undefined {
  for (const [member, value] of Object.entries(e)) {
    const where = appendPointer(at, member);
    const found =
      member === "pointer"
        ? findSecretInPointer(value, where)
        : member === "pattern"
          ? findSecretInPattern(value, where)
          : member === "volatile" && Array.isArray(value)
            ? value.map((v, k) => findSecretInPointer(v, appendPointer(where, k))).find((f) => f !== undefined)
            : findSecret(value, where);
    if (found !== undefined) return found;
  }
  return undefined;
}

const REMOVE_ADVICE =
  "A link must carry no secrets: remove it (or take it from an earlier call's answer with a capture and a {{variable}}), then share again.";
/**
 * For an expectation: most were copied from an answer by "Expect this". The rule also matches digests and other
 * random-looking ids an answer holds, which are no secret but cannot be told apart from one: the file carries them.
 */
const EXPECT_ADVICE =
  "A link must carry no secrets: expect it as present (or remove it), then share again. If it is not a secret (a digest, a random id), share the file instead.";

function refuseSecret(where: string, pointer: string, advice = REMOVE_ADVICE): never {
  throw new ShareLinkError("invalid", `Not shared: ${where} holds what looks like a credential at ${pointer}. ${advice}`);
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
    const where = `call ${JSON.stringify(call.name)}`;
    for (const member of ["request", "answers"] as const) {
      const found = findSecret(call[member], buildPointer(["calls", i, member]));
      if (found !== undefined) refuseSecret(where, found);
    }
    call.expect.forEach((e, j) => {
      const found = findSecretInExpectation(e, buildPointer(["calls", i, "expect", j]));
      if (found !== undefined) refuseSecret(where, found, EXPECT_ADVICE);
    });
    for (const [name, pointer] of Object.entries(call.capture ?? {})) {
      const at = buildPointer(["calls", i, "capture", name]);
      const found = holdsSecret(name) ? at : findSecretInPointer(pointer, at);
      if (found !== undefined) refuseSecret(where, found);
    }
  });
  return out;
}

/**
 * The fragment text (without `#`) for a collection: `c1.<data>`. Throws a {@link ShareLinkError}: "invalid" when a
 * request, prepared answer, variable, expectation or capture holds what looks like a credential, or the collection
 * is not valid;
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
