import assert from "node:assert/strict";
import { test } from "node:test";
import { inflateSync } from "node:zlib";
import { barChartPng, encodePng, toneWav } from "./media.ts";

function chunks(png: Buffer): Array<{ type: string; data: Buffer }> {
  const out = [];
  for (let at = 8; at < png.length;) {
    const length = png.readUInt32BE(at);
    out.push({ type: png.toString("ascii", at + 4, at + 8), data: png.subarray(at + 8, at + 8 + length) });
    at += 12 + length;
  }
  return out;
}

test("encodePng writes a valid PNG: signature, IHDR, CRCs, inflatable pixel rows", () => {
  const png = encodePng(3, 2, (x, y) => [x * 10, y * 20, 255]);
  assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const parts = chunks(png);
  assert.deepEqual(
    parts.map((c) => c.type),
    ["IHDR", "IDAT", "IEND"],
  );
  assert.equal(parts[0].data.readUInt32BE(0), 3);
  assert.equal(parts[0].data.readUInt32BE(4), 2);
  // CRC of IEND (no data) is a well-known constant
  assert.equal(png.readUInt32BE(png.length - 4), 0xae426082);
  const raw = inflateSync(parts[1].data);
  assert.equal(raw.length, (3 * 3 + 1) * 2);
  assert.deepEqual([...raw.subarray(1 + 3 * 2, 1 + 3 * 3)], [20, 0, 255]);
});

test("barChartPng draws bars in their colours", () => {
  const png = barChartPng(
    [
      { value: 1, color: [255, 0, 0] },
      { value: 2, color: [0, 0, 255] },
    ],
    40,
    30,
  );
  const raw = inflateSync(chunks(png)[1].data);
  assert.ok(raw.includes(Buffer.from([0, 0, 255])), "blue bar present");
  assert.ok(raw.includes(Buffer.from([255, 0, 0])), "red bar present");
});

test("toneWav writes a consistent PCM WAV header", () => {
  const wav = toneWav([{ hz: 440, ms: 100 }], 8000);
  assert.equal(wav.toString("ascii", 0, 4), "RIFF");
  assert.equal(wav.readUInt32LE(4), wav.length - 8);
  assert.equal(wav.toString("ascii", 8, 16), "WAVEfmt ");
  assert.equal(wav.readUInt16LE(20), 1);
  assert.equal(wav.readUInt32LE(24), 8000);
  assert.equal(wav.readUInt32LE(40), 800 * 2);
  assert.equal(wav.length, 44 + 1600);
});
