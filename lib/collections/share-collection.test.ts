import { test } from "node:test";
import assert from "node:assert/strict";
import { deflateSync } from "fflate";
import {
  collectionShareUrl,
  COLLECTION_SHARE_VERSION,
  decodeCollectionShare,
  encodeCollectionShare,
  isCollectionShareFragment,
  MAX_COLLECTION_SHARE_BYTES,
} from "./share-collection.ts";
import type { Collection, Expectation } from "./format.ts";
import { looksLikeSecretValue } from "../mcp/secrets.ts";
import { writeCollection } from "./write-collection.ts";
import { exampleCollection } from "./testing/example-collection.ts";
import { isShareFragment, ShareLinkError } from "../share/share-codec.ts";

const b64url = (bytes: Uint8Array | string) => Buffer.from(bytes).toString("base64url");
/**
 * A decoded collection as plain data: parseCollection (which decoding ends with, as reading a file does) builds
 * null-prototype objects, so a `__proto__` member stays data; deepStrictEqual compares prototypes too.
 */
const plain = (value: unknown): unknown => JSON.parse(JSON.stringify(value));
const link = (text: string) => `c1.${b64url(deflateSync(new TextEncoder().encode(text)))}`;

/** `fn` throws a ShareLinkError with this reason and exactly this message (or one matching it). */
function refuses(fn: () => unknown, reason: string, message: string | RegExp) {
  assert.throws(fn, (err: unknown) => {
    assert.ok(err instanceof ShareLinkError, String(err));
    assert.equal(err.reason, reason, err.message);
    if (typeof message === "string") assert.equal(err.message, message);
    else assert.match(err.message, message);
    return true;
  });
}

/** A small collection with every free-form place a value can be: variables, params, answers, recorded answers. */
function richCollection(): Collection {
  return {
    format: "toolscope.collection/1",
    name: "Ünïcödé ✓ \u{1F600}",
    description: "Shared by link",
    environment: { server: "https://mcp.example.com/mcp", headers: ["Authorization"], variables: { team: "platform", n: 3 } },
    calls: [
      {
        name: "confirm",
        request: { jsonrpc: "2.0", method: "tools/call", params: { name: "purge_closed_issues", arguments: { dry_run: false } } },
        expect: [
          { kind: "no-error" },
          { kind: "unchanged", recorded: { content: [{ type: "text", text: "done" }] }, volatile: ["/content/0/text"] },
          { kind: "matches", pointer: "/result/content/0/text", pattern: "^d", flags: "i" },
        ],
        capture: { out: "/result/content/0/text" },
        answers: { confirm: { action: "accept", content: { confirm: true } } },
        timeoutMs: 5000,
      },
    ],
  };
}

test("round trip: decode(encode(c)) is c, and writes the same bytes", () => {
  for (const c of [exampleCollection(), richCollection()]) {
    const fragment = encodeCollectionShare(c);
    assert.match(fragment, /^c1\.[A-Za-z0-9_-]+$/);
    const decoded = decodeCollectionShare(fragment);
    assert.deepEqual(plain(decoded), c);
    assert.equal(writeCollection(decoded), writeCollection(c));
    assert.deepEqual(plain(decodeCollectionShare(`#${fragment}`)), c, "with the # too");
  }
});

test("the server URL is shared without its credentials (and normalised)", () => {
  const c = richCollection();
  c.environment!.server = "https://ada:hunter2@MCP.example.com/mcp?api_key=abc123&region=eu#frag";
  const decoded = decodeCollectionShare(encodeCollectionShare(c));
  assert.equal(decoded.environment?.server, "https://mcp.example.com/mcp?region=eu");
  const expected = { ...c, environment: { ...c.environment, server: "https://mcp.example.com/mcp?region=eu" } };
  assert.deepEqual(plain(decoded), expected);
  assert.equal(writeCollection(decoded), writeCollection(expected));
  assert.ok(!encodeCollectionShare(c).includes("hunter2"));

  // A hand-made link with credentials in it: stripped on the way in too.
  const handMade = { ...richCollection(), environment: { server: "https://mcp.example.com/mcp?token=abc" } };
  assert.equal(decodeCollectionShare(link(writeCollection(handMade))).environment?.server, "https://mcp.example.com/mcp");
});

test("collectionShareUrl: the playground with the fragment; fragments are told apart from experiment links", () => {
  const c = exampleCollection();
  const url = collectionShareUrl("https://toolscope.dev/", c);
  assert.equal(url, `https://toolscope.dev/playground#${encodeCollectionShare(c)}`);
  const fragment = new URL(url).hash;
  assert.ok(isCollectionShareFragment(fragment));
  assert.ok(!isShareFragment(fragment), "an experiment link reader does not take it for one of its own");
  assert.ok(!isCollectionShareFragment("#v1.abc"));
  assert.equal(COLLECTION_SHARE_VERSION, "c1");
  assert.deepEqual(plain(decodeCollectionShare(fragment)), c);
});

test("what looks like a credential is refused, naming the call and the pointer, never the value", () => {
  const advice =
    "A link must carry no secrets: remove it (or take it from an earlier call's answer with a capture and a {{variable}}), then share again.";
  const token = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8";

  const inRequest = exampleCollection();
  (inRequest.calls[2].request.params as Record<string, unknown>).arguments = { issue_id: 1, note: { token } };
  refuses(
    () => encodeCollectionShare(inRequest),
    "invalid",
    `Not shared: call "assign it to a team" holds what looks like a credential at /calls/2/request/params/arguments/note/token. ${advice}`,
  );

  const inAnswer = richCollection();
  inAnswer.calls[0].answers = { confirm: { action: "accept", content: { reason: "use Bearer abcdefgh12345678 please" } } };
  refuses(
    () => encodeCollectionShare(inAnswer),
    "invalid",
    `Not shared: call "confirm" holds what looks like a credential at /calls/0/answers/confirm/content/reason. ${advice}`,
  );

  const inVariable = richCollection();
  inVariable.environment!.variables = { team: "platform", "api/key": `key ${"sk-proj-" + "a1B2c3D4e5F6g7H8i9J0"}` };
  refuses(
    () => encodeCollectionShare(inVariable),
    "invalid",
    `Not shared: an environment variable holds what looks like a credential at /environment/variables/api~1key. ${advice}`,
  );

  const jwt = richCollection();
  jwt.calls[0].request = {
    method: "tools/call",
    params: { name: "x", arguments: { items: ["ok", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig"] } },
  };
  refuses(() => encodeCollectionShare(jwt), "invalid", /at \/calls\/0\/request\/params\/arguments\/items\/1\. /);

  for (const err of [inRequest, inAnswer, inVariable].map((c) => {
    try {
      encodeCollectionShare(c);
    } catch (e) {
      return (e as Error).message;
    }
    return "";
  }))
    assert.ok(!/ghp_|abcdefgh12345678|sk-proj/.test(err), err);
});

test("ordinary values are not taken for credentials: placeholders, UUIDs, slugs, prose, recorded answers", () => {
  const c = richCollection();
  c.environment!.variables = { id: "3f2504e0-4f89-11d3-9a0c-0305e82c3301", slug: "release-2024-01-notes", token: "{{from_ci}}" };
  c.calls[0].request = {
    method: "tools/call",
    params: { name: "search_issues", arguments: { query: "Export fails for large projects in the v2 API", cursor: "{{cursor}}" } },
  };
  // Expectations are scanned too, with the same rule: ordinary values, long pointers, schemas and patterns pass.
  c.calls[0].expect.push(
    { kind: "equals", pointer: "/result/structuredContent/ref", value: "3f2504e0-4f89-11d3-9a0c-0305e82c3301" },
    { kind: "present", pointer: "/result/content/0/text/items/12/labels/3/name/2/id" },
    { kind: "text-contains", text: "Created issue #13 in the platform team's backlog" },
    { kind: "text-matches", pattern: "^sk-[A-Za-z0-9]{20,}$" },
    { kind: "schema", schema: { type: "object", additionalProperties: false, properties: { total: { const: 12 } } } },
    {
      kind: "unchanged",
      recorded: { structuredContent: { status: "open", day: "2026-07-01" } },
      volatile: ["/structuredContent/items/12/labels/3/name/2"],
    },
  );
  assert.deepEqual(plain(decodeCollectionShare(encodeCollectionShare(c))), c);
});

test("expectations: a credential copied from an answer is refused, at the member's pointer, never the value", () => {
  const advice =
    "A link must carry no secrets: expect it as present (or remove it), then share again. If it is not a secret (a digest, a random id), share the file instead.";
  const key = "sk-proj-" + "a1B2c3D4e5F6g7H8i9J0";
  const token = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8";
  const cases: [Expectation, string][] = [
    [{ kind: "text-contains", text: `Signed in with key ${key}` }, "/calls/0/expect/3/text"],
    [{ kind: "equals", pointer: "/result/structuredContent/session", value: token }, "/calls/0/expect/3/value"],
    [{ kind: "equals", pointer: "/result/structuredContent/auth", value: { header: `Bearer ${token}` } }, "/calls/0/expect/3/value/header"],
    [{ kind: "matches", pointer: "/result/structuredContent/k", pattern: `^${key}$` }, "/calls/0/expect/3/pattern"],
    [{ kind: "text-matches", pattern: `key ${key}` }, "/calls/0/expect/3/pattern"],
    [
      { kind: "unchanged", recorded: { content: [{ type: "text", text: `Your key is ${key}.` }] } },
      "/calls/0/expect/3/recorded/content/0/text",
    ],
    [{ kind: "schema", schema: { type: "object", properties: { k: { const: token } } } }, "/calls/0/expect/3/schema/properties/k/const"],
    // Member names of an answer become pointers: read token by token.
    [{ kind: "present", pointer: `/result/structuredContent/${token}` }, "/calls/0/expect/3/pointer"],
    [{ kind: "unchanged", recorded: {}, volatile: ["/a", `/keys/${token}`] }, "/calls/0/expect/3/volatile/1"],
  ];
  for (const [expectation, pointer] of cases) {
    const c = richCollection();
    c.calls[0].expect.push(expectation);
    refuses(
      () => encodeCollectionShare(c),
      "invalid",
      `Not shared: call "confirm" holds what looks like a credential at ${pointer}. ${advice}`,
    );
  }
  // A capture pointer is read the same way (it is not an expectation: the advice is the request's).
  const capture = richCollection();
  capture.calls[0].capture = { out: "/result/content/0/text", k: `/result/structuredContent/${token}` };
  refuses(
    () => encodeCollectionShare(capture),
    "invalid",
    `Not shared: call "confirm" holds what looks like a credential at /calls/0/capture/k. A link must carry no secrets: remove it (or take it from an earlier call's answer with a capture and a {{variable}}), then share again.`,
  );
});

test("expectations: a sha256 digest looks like a token to the rule, so it is refused too, pointing to the file", () => {
  const digest = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";
  // Why: lib/mcp/secrets.ts's rule takes any 32+ character run switching often between letters and digits for a
  // token. Should it learn to tell digests apart, these become "shared as they are".
  assert.equal(looksLikeSecretValue(digest), true);
  const c = richCollection();
  c.calls[0].expect[1] = { kind: "unchanged", recorded: { structuredContent: { sha256: digest } } };
  const message =
    'Not shared: call "confirm" holds what looks like a credential at /calls/0/expect/1/recorded/structuredContent/sha256. A link must carry no secrets: expect it as present (or remove it), then share again. If it is not a secret (a digest, a random id), share the file instead.';
  refuses(() => encodeCollectionShare(c), "invalid", message);
  assert.ok(!message.includes(digest));
  // As present, the same expectation is shared.
  c.calls[0].expect[1] = { kind: "present", pointer: "/result/structuredContent/sha256" };
  assert.deepEqual(plain(decodeCollectionShare(encodeCollectionShare(c))), c);
});

test("a collection that is not valid is not encoded: the problem at line:column", () => {
  const c = exampleCollection();
  c.calls[1].name = c.calls[0].name;
  refuses(
    () => encodeCollectionShare(c),
    "invalid",
    'Not shared: the collection is not valid (52:15: a second call named "create an issue": call names must be unique). Fix it, then share again.',
  );
  refuses(
    () => encodeCollectionShare({ ...exampleCollection(), environment: { server: "ftp://files.example.com" } }),
    "invalid",
    "Only http(s) servers can be shared, not ftp:",
  );
});

test("bounds on encoding: past MAX_COLLECTION_SHARE_BYTES, or not compressible into a fragment", () => {
  assert.equal(MAX_COLLECTION_SHARE_BYTES, 256 * 1024);
  const big = { ...exampleCollection(), description: "x".repeat(MAX_COLLECTION_SHARE_BYTES) };
  refuses(
    () => encodeCollectionShare(big),
    "too-large",
    /^This collection is 260 KB, more than a link may carry \(256 KB\); share the file instead\.$/,
  );
  // 200 KB of pseudo-random words: under the byte bound, but it deflates to more than a fragment may hold.
  const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  // xorshift32: deterministic, and far from the repeats deflate would find.
  let seed = 7;
  const random = () => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return (seed >>> 0) / 2 ** 32;
  };
  const words = Array.from({ length: 40_000 }, () =>
    Array.from({ length: 4 }, () => ALPHABET[Math.floor(random() * ALPHABET.length)]).join(""),
  );
  const noisy = { ...exampleCollection(), description: words.join(" ") };
  refuses(
    () => encodeCollectionShare(noisy),
    "too-large",
    /^This collection does not compress into a link \(\d+ K characters, at most 128 K\); share the file instead\.$/,
  );
});

test("decoding refuses what is not a collection link, or is damaged, with what is wrong and what to do", () => {
  refuses(() => decodeCollectionShare("#v1.abc"), "not-a-share", "This is not a Toolscope collection link (it should end in #c1.…).");
  refuses(() => decodeCollectionShare("hello"), "not-a-share", "This is not a Toolscope collection link (it should end in #c1.…).");
  refuses(
    () => decodeCollectionShare("#c2.abc"),
    "unknown-version",
    "This collection link was made by a newer or unknown Toolscope (format c2); this version reads c1 links only. Update Toolscope, or ask for the collection file.",
  );
  refuses(() => decodeCollectionShare("c1."), "corrupt", "The link is damaged: it carries no data.");
  refuses(() => decodeCollectionShare("c1.ab+/"), "corrupt", /^The link is damaged: its data contains characters a share link never has/);
  refuses(() => decodeCollectionShare(`c1.${b64url("not deflate at all, just text")}`), "corrupt", /^The link is damaged: its data/);
  const whole = encodeCollectionShare(exampleCollection());
  refuses(
    () => decodeCollectionShare(whole.slice(0, whole.length - 40)),
    "corrupt",
    /^The link is damaged: its data (ends too early|does not decompress)/,
  );
  refuses(
    () => decodeCollectionShare(`c1.${b64url(deflateSync(new Uint8Array([0xff, 0xfe, 0x7b])))}`),
    "corrupt",
    "The link is damaged: its content is not UTF-8 text.",
  );
  refuses(
    () => decodeCollectionShare(`c1.${"A".repeat(128 * 1024 + 1)}`),
    "too-large",
    "The link is too long to be a Toolscope collection link, so it was not opened.",
  );
});

test("decoding is bounded: a small link that unpacks past 256 KiB is refused before it is all unpacked", () => {
  const bomb = deflateSync(new Uint8Array(MAX_COLLECTION_SHARE_BYTES * 40).fill(0x20), { level: 9 });
  const fragment = `c1.${b64url(bomb)}`;
  assert.ok(fragment.length < 20_000, `the bomb is small: ${fragment.length}`);
  refuses(
    () => decodeCollectionShare(fragment),
    "too-large",
    "The shared collection is larger than 256 KB once unpacked, so it was not opened; ask for the file instead.",
  );
  // Exactly at the bound is read (and then judged as a collection).
  const atBound = `{"format":"toolscope.collection/1","name":"n","calls":[]}`.padEnd(MAX_COLLECTION_SHARE_BYTES, " ");
  assert.deepEqual(plain(decodeCollectionShare(link(atBound))), { format: "toolscope.collection/1", name: "n", calls: [] });
});

test("content that is not a valid collection: invalid, naming line:column", () => {
  refuses(
    () => decodeCollectionShare(link("{ not json")),
    "invalid",
    "The shared collection cannot be read: 1:3: not JSON: unexpected character. Ask whoever shared it for a new link or the file.",
  );
  refuses(
    () => decodeCollectionShare(link('{\n  "format": "toolscope.collection/2",\n  "name": "n",\n  "calls": []\n}')),
    "invalid",
    'The shared collection cannot be read: 2:13: format "toolscope.collection/2" is not one this version reads (toolscope.collection/1). Ask whoever shared it for a new link or the file.',
  );
  refuses(
    () => decodeCollectionShare(link('{\n  "format": "toolscope.collection/1",\n  "name": "n",\n  "calls": [1, 2]\n}')),
    "invalid",
    /^The shared collection cannot be read: 4:13: \/calls\/0: .+ \(and 1 more problem\)\. Ask whoever shared it for a new link or the file\.$/,
  );
});
