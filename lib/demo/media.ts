/**
 * Tiny, dependency-free media encoders for the demo's image and audio tools: an RGB PNG bar chart
 * (zlib via node:zlib, CRC-32 computed here) and a 16-bit mono PCM WAV of sine tones.
 */
import { deflateSync } from "node:zlib";

let crcTable: Uint32Array | undefined;
function crc32(bytes: Uint8Array): number {
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  let crc = 0xffffffff;
  for (const b of bytes) crc = crcTable[(crc ^ b) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, "ascii");
  Buffer.from(data).copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

export type Rgb = readonly [number, number, number];

/** Encodes an RGB image (`pixel(x, y)` per pixel) as a PNG. */
export function encodePng(width: number, height: number, pixel: (x: number, y: number) => Rgb): Buffer {
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (width * 3 + 1);
    raw[row] = 0; // filter: none
    for (let x = 0; x < width; x++) {
      const [r, g, b] = pixel(x, y);
      raw[row + 1 + x * 3] = r;
      raw[row + 2 + x * 3] = g;
      raw[row + 3 + x * 3] = b;
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type: truecolour
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk("IHDR", ihdr), chunk("IDAT", deflateSync(raw)), chunk("IEND", new Uint8Array(0))]);
}

export interface Bar {
  value: number;
  color: Rgb;
}

/** A bar chart on a light background with a baseline; bars are scaled to the largest value. */
export function barChartPng(bars: readonly Bar[], width = 240, height = 140): Buffer {
  const pad = 12;
  const max = Math.max(1, ...bars.map((b) => b.value));
  const slot = (width - 2 * pad) / Math.max(1, bars.length);
  const barWidth = Math.max(2, Math.floor(slot * 0.6));
  const baseline = height - pad;
  const background: Rgb = [250, 250, 252];
  const axis: Rgb = [60, 60, 70];
  return encodePng(width, height, (x, y) => {
    if (y === baseline && x >= pad && x < width - pad) return axis;
    const i = Math.floor((x - pad) / slot);
    if (x < pad || i < 0 || i >= bars.length) return background;
    const left = pad + i * slot + (slot - barWidth) / 2;
    if (x < left || x >= left + barWidth) return background;
    const barHeight = Math.round(((baseline - pad) * bars[i].value) / max);
    return y < baseline && y >= baseline - barHeight ? bars[i].color : background;
  });
}

/** 16-bit mono PCM WAV of consecutive sine tones, with short fades to avoid clicks. */
export function toneWav(tones: ReadonlyArray<{ hz: number; ms: number }>, sampleRate = 8_000): Buffer {
  const samples: number[] = [];
  for (const { hz, ms } of tones) {
    const n = Math.round((sampleRate * ms) / 1000);
    const fade = Math.min(n / 2, sampleRate / 100);
    for (let i = 0; i < n; i++) {
      const envelope = Math.min(1, i / fade, (n - 1 - i) / fade);
      samples.push(Math.round(Math.sin((2 * Math.PI * hz * i) / sampleRate) * envelope * 0.4 * 32767));
    }
  }
  const dataBytes = samples.length * 2;
  const out = Buffer.alloc(44 + dataBytes);
  out.write("RIFF", 0, "ascii");
  out.writeUInt32LE(36 + dataBytes, 4);
  out.write("WAVE", 8, "ascii");
  out.write("fmt ", 12, "ascii");
  out.writeUInt32LE(16, 16); // fmt chunk size
  out.writeUInt16LE(1, 20); // PCM
  out.writeUInt16LE(1, 22); // mono
  out.writeUInt32LE(sampleRate, 24);
  out.writeUInt32LE(sampleRate * 2, 28); // byte rate
  out.writeUInt16LE(2, 32); // block align
  out.writeUInt16LE(16, 34); // bits per sample
  out.write("data", 36, "ascii");
  out.writeUInt32LE(dataBytes, 40);
  samples.forEach((v, i) => out.writeInt16LE(v, 44 + i * 2));
  return out;
}
