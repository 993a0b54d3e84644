/**
 * The file a "Download blob" saves, when the server chose the blob's name (its URI) and type. Pure. A hostile server
 * names an HTML page `invoice.pdf.html` (a system that hides extensions shows `invoice.pdf`), or a path with
 * separators, control or bidi characters; and it picks an active type (HTML, SVG, script) that a browser runs when
 * the file is opened. So:
 *
 * - the type is one of a short list of passive types, else `application/octet-stream` (nothing renders it);
 * - the extension always comes from that type: HTML, XHTML, SVG, XML and scripts are saved as `.txt` (their source,
 *   readable, never run), anything unknown as `.bin`;
 * - the name is the URI's last path segment with separators, control, format (bidi, zero-width) and reserved
 *   characters replaced, and every dot of the stem turned into `_`, so the only extension is the real one:
 *   `invoice.pdf.html` as `text/html` is saved as `invoice_pdf_html.txt`.
 */

/** Passive types a browser or desktop opens without running anything, and the one extension each is saved with. */
const PASSIVE: Readonly<Record<string, string>> = {
  "application/pdf": "pdf",
  "application/json": "json",
  "application/zip": "zip",
  "application/gzip": "gz",
  "application/octet-stream": "bin",
  "text/plain": "txt",
  "text/csv": "csv",
  "text/markdown": "md",
  "image/png": "png",
  "image/jpeg": "jpg",
  "image/gif": "gif",
  "image/webp": "webp",
  "image/avif": "avif",
  "audio/mpeg": "mp3",
  "audio/wav": "wav",
  "audio/ogg": "ogg",
  "video/mp4": "mp4",
  "video/webm": "webm",
};

/** Types that run script or render markup when opened: saved as their source text, under a type nothing renders. */
const ACTIVE =
  /^(text\/html|application\/xhtml\+xml|image\/svg\+xml|text\/xml|application\/xml|[a-z]+\/[a-z.+-]*(javascript|ecmascript)|text\/x-[a-z]+)$/;

/** Longest name kept from the URI, in code points (without the extension). */
const MAX_STEM = 100;

export interface DownloadFile {
  /** The name to save under (the `download` attribute). */
  fileName: string;
  /** The type of the saved data (the data or blob URL's). */
  type: string;
}

/** The type and extension a blob of `mimeType` is saved with. */
function savedAs(mimeType: unknown): { type: string; ext: string } {
  const base = typeof mimeType === "string" ? mimeType.split(";")[0].trim().toLowerCase() : "";
  if (Object.hasOwn(PASSIVE, base)) return { type: base, ext: PASSIVE[base] };
  return { type: "application/octet-stream", ext: ACTIVE.test(base) ? "txt" : "bin" };
}

/** The URI's last path segment, decoded when it decodes. */
function lastSegment(uri: unknown): string {
  const raw = String(uri ?? "")
    .replace(/[?#].*$/s, "")
    .split(/[/\\]/)
    .pop();
  try {
    return decodeURIComponent(raw ?? "");
  } catch {
    return raw ?? "";
  }
}

/** A name to save `uri`'s blob of `mimeType` under, and the type to save it with (see the module comment). */
export function safeDownload(uri: unknown, mimeType: unknown): DownloadFile {
  const { type, ext } = savedAs(mimeType);
  let name = lastSegment(uri)
    // Separators, control, format (bidi, zero-width), line separators, and characters Windows refuses in names.
    .replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}/\\<>:"|?*]/gu, "_")
    .replace(/\s+/g, " ")
    .trim();
  // The name's own extension is dropped when it is the one it gets anyway (`report.pdf` as a PDF stays `report.pdf`).
  const dot = name.lastIndexOf(".");
  if (dot > 0 && name.slice(dot + 1).toLowerCase() === ext) name = name.slice(0, dot);
  let stem = [...name.replace(/\./g, "_")].slice(0, MAX_STEM).join("");
  stem = stem.replace(/^[_ ]+|[_ ]+$/g, "");
  // Device names Windows will not create (con.txt is the console, not a file).
  if (/^(con|prn|aux|nul|com\d|lpt\d)$/i.test(stem)) stem = `_${stem}`;
  return { fileName: `${stem || "resource"}.${ext}`, type };
}
