import { test } from "node:test";
import assert from "node:assert/strict";
import { MASK, maskJson, maskServerText, maskText, NO_SECRETS, requestSecretValues, secretValues } from "./mask-text.ts";

const TOKEN = "tok-en/with+odd=chars";

test("every spelling of a value is masked: as sent, bare after its scheme, URL-, JSON- and HTML-escaped, any case", () => {
  const s = secretValues([`Bearer ${TOKEN}`, 'key "quoted" & <b>']);
  assert.equal(maskText(`auth=Bearer ${TOKEN}`, s), `auth=${MASK}`);
  assert.equal(maskText(`token ${TOKEN} expired`, s), `token ${MASK} expired`);
  assert.equal(maskText(`?t=${encodeURIComponent(TOKEN)}&x=1`, s), `?t=${MASK}&x=1`);
  assert.equal(maskText(`?t=${encodeURIComponent(TOKEN).toLowerCase()}`, s), `?t=${MASK}`);
  assert.equal(maskText(`{"k":"key \\"quoted\\" & <b>"}`, s), `{"k":"${MASK}"}`);
  assert.equal(maskText("<p>key &quot;quoted&quot; &amp; &lt;b&gt;</p>", s), `<p>${MASK}</p>`);
  assert.equal(maskText(`BEARER ${TOKEN.toUpperCase()}`, s), MASK);
});

test("a Basic credential is masked decoded too, and its password alone", () => {
  const s = secretValues([`Basic ${btoa("alice:pa55-word-long")}`]);
  assert.equal(maskText("bad credentials alice:pa55-word-long", s), `bad credentials ${MASK}`);
  assert.equal(maskText("password pa55-word-long is wrong", s), `password ${MASK} is wrong`);
});

test("the head of a value cut by a clip (… or the end of the text) is masked, not other words", () => {
  const s = secretValues(["abcdefghijkl"]);
  assert.equal(maskText("key abcdefg…", s), `key ${MASK}…`);
  assert.equal(maskText("key abcdefg …[cut]", s), `key ${MASK} …[cut]`);
  assert.equal(maskText("key abcd", s), `key ${MASK}`);
  assert.equal(maskText("key abc…", s), "key abc…");
  assert.equal(maskText("abcdefg and more", s), "abcdefg and more");
});

test("short values are not masked; no values, nothing changes", () => {
  assert.equal(maskText("on eu 1", secretValues(["on", "eu", "1"])), "on eu 1");
  assert.equal(maskText("anything", NO_SECRETS), "anything");
  assert.equal(maskText("anything", secretValues([])), "anything");
});

test("server text also loses credential-looking words; our own text keeps its words", () => {
  assert.equal(maskServerText("use Bearer abc please", NO_SECRETS), `use Bearer ${MASK} please`);
  assert.equal(
    maskText("Add an Authorization header (e.g. Bearer <token>)", NO_SECRETS),
    "Add an Authorization header (e.g. Bearer <token>)",
  );
});

test("maskJson masks every string of a value, keys included", () => {
  const s = secretValues(["s3cret-value"]);
  assert.deepEqual(maskJson({ a: ["x s3cret-value"], "s3cret-value": 1, n: 2 }, s), { a: [`x ${MASK}`], [MASK]: 1, n: 2 });
});

test("a request's secrets: header values, overrides, OAuth tokens, client secrets, verifier and code", () => {
  const s = requestSecretValues({
    url: "https://x",
    headers: { Authorization: "Bearer h-value" },
    headerOverrides: { "Mcp-Param-Key": "o-value" },
    state: {
      tokens: { access_token: "a-token", refresh_token: "r-token" },
      client: { client_secret: "c-secret" },
      codeVerifier: "v-value",
    },
    preregistered: { clientSecret: "p-secret" },
    callback: { code: "the-code" },
  });
  const text = "h-value o-value a-token r-token c-secret v-value p-secret the-code https://x";
  assert.equal(maskText(text, s), `${Array(8).fill(MASK).join(" ")} https://x`);
});
