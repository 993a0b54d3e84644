import "server-only";

/** The image types the icon proxy serves: raster formats only, which a browser can never run script from. */
export const RASTER_TYPES = ["image/png", "image/jpeg", "image/gif", "image/webp", "image/x-icon"] as const;
export type RasterType = (typeof RASTER_TYPES)[number];

function startsWith(bytes: Uint8Array, prefix: readonly number[], at = 0): boolean {
  if (bytes.length < at + prefix.length) return false;
  return prefix.every((b, i) => bytes[at + i] === b);
}

const ascii = (text: string): number[] => [...text].map((c) => c.charCodeAt(0));

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG = [0xff, 0xd8, 0xff];
const GIF87 = ascii("GIF87a");
const GIF89 = ascii("GIF89a");
const RIFF = ascii("RIFF");
const WEBP = ascii("WEBP");
const ICO = [0x00, 0x00, 0x01, 0x00];

/**
 * The raster type the bytes really are, from their magic numbers (the upstream Content-Type is not believed:
 * a host can label an SVG or an HTML page `image/png`). Undefined for anything else, SVG included.
 */
export function sniffRasterType(bytes: Uint8Array): RasterType | undefined {
  if (startsWith(bytes, PNG)) return "image/png";
  if (startsWith(bytes, JPEG)) return "image/jpeg";
  if (startsWith(bytes, GIF87) || startsWith(bytes, GIF89)) return "image/gif";
  if (startsWith(bytes, RIFF) && startsWith(bytes, WEBP, 8)) return "image/webp";
  // An ICO header is 00 00 01 00 and a non-zero image count (little-endian), which rules out most stray zeros.
  if (startsWith(bytes, ICO) && bytes.length >= 6 && (bytes[4] | (bytes[5] << 8)) > 0) return "image/x-icon";
  return undefined;
}

/** Whether the bytes look like SVG (or other XML), only to word the refusal precisely. */
export function looksLikeSvg(bytes: Uint8Array): boolean {
  const head = new TextDecoder("utf-8", { fatal: false })
    .decode(bytes.subarray(0, 512))
    .replace(/^\uFEFF/, "")
    .trimStart()
    .toLowerCase();
  return head.startsWith("<") && head.includes("<svg");
}
