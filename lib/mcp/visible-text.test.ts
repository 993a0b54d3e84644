import { test } from "node:test";
import assert from "node:assert/strict";
import { invisibleChars, visibleText } from "./visible-text.ts";

test("bidi controls become visible marks: a reversed domain no longer reads as another one", () => {
  assert.equal(visibleText("Sign in to continue\u202Emoc.elgoog"), "Sign in to continue⟪U+202E⟫moc.elgoog");
  for (const cp of [0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069, 0x200e, 0x200f, 0x061c]) {
    const ch = String.fromCodePoint(cp);
    const mark = `⟪U+${cp.toString(16).toUpperCase().padStart(4, "0")}⟫`;
    assert.equal(visibleText(`a${ch}b`), `a${mark}b`, mark);
  }
});

test("zero-width characters, the BOM, the soft hyphen and tag characters are marked too; everything else is kept", () => {
  assert.equal(visibleText("pay\u200Bpal\uFEFF\u00AD"), "pay⟪U+200B⟫pal⟪U+FEFF⟫⟪U+00AD⟫");
  assert.equal(visibleText("ok\u{E0041}\u{E007F}"), "ok⟪U+E0041⟫⟪U+E007F⟫");
  const plain = "Ünïcödé, עברית, العربية, 日本語, emoji 👍🏽, tabs\tand\nnewlines";
  assert.equal(visibleText(plain), plain);
  assert.equal(visibleText(""), "");
});

test("invisibleChars names each hidden character once, in order", () => {
  assert.deepEqual(invisibleChars("a\u202Eb\u200Bc\u202E"), ["U+202E", "U+200B"]);
  assert.deepEqual(invisibleChars("nothing hidden"), []);
});
