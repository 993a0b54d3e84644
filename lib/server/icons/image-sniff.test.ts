import { test } from "node:test";
import assert from "node:assert/strict";
import { looksLikeSvg, sniffRasterType } from "./image-sniff.ts";

const bytes = (...parts: (number[] | string)[]) =>
  new Uint8Array(parts.flatMap((p) => (typeof p === "string" ? [...p].map((c) => c.charCodeAt(0)) : p)));

test("raster magic numbers are recognised", () => {
  assert.equal(sniffRasterType(bytes([0x89], "PNG\r\n\x1a\n", [0, 0, 0, 13])), "image/png");
  assert.equal(sniffRasterType(bytes([0xff, 0xd8, 0xff, 0xe0])), "image/jpeg");
  assert.equal(sniffRasterType(bytes("GIF87a", [1, 0])), "image/gif");
  assert.equal(sniffRasterType(bytes("GIF89a", [1, 0])), "image/gif");
  assert.equal(sniffRasterType(bytes("RIFF", [0x24, 0, 0, 0], "WEBPVP8 ")), "image/webp");
  assert.equal(sniffRasterType(bytes([0, 0, 1, 0, 1, 0, 16, 16])), "image/x-icon");
});

test("everything else is not a raster icon", () => {
  const refused = [
    bytes(),
    bytes([0x89], "PN"),
    bytes("RIFF", [0x24, 0, 0, 0], "WAVEfmt "),
    bytes([0, 0, 1, 0, 0, 0]),
    bytes("BM", [0, 0, 0, 0]),
    bytes('<svg xmlns="http://www.w3.org/2000/svg"/>'),
    bytes("<!doctype html><img src=x onerror=alert(1)>"),
    bytes("GIF89"),
  ];
  for (const b of refused) assert.equal(sniffRasterType(b), undefined, new TextDecoder().decode(b));
});

test("SVG is told apart from other text, only to word the refusal", () => {
  assert.equal(looksLikeSvg(new TextEncoder().encode('\uFEFF  <?xml version="1.0"?><!-- x --><svg/>')), true);
  assert.equal(looksLikeSvg(bytes("<SVG></SVG>")), true);
  assert.equal(looksLikeSvg(bytes("<!doctype html><p>svg</p>")), false);
  assert.equal(looksLikeSvg(bytes("not xml <svg>")), false);
});
