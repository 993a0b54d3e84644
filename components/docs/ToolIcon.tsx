/* eslint-disable @next/next/no-img-element -- icons are data: URIs or come from our own /api/icon proxy, which already bounds and checks them */
import type { Icon } from "@/lib/mcp/contract";
import { isSafeImageSrc } from "@/lib/docs/markdown-safety";

/**
 * Remote icons are fetched by Toolscope's server (app/api/icon), never by the viewer's browser: the host an
 * untrusted MCP server names learns nothing about who reads its docs, and the page CSP can stay `img-src 'self' data:`.
 */
const ICON_PROXY_PATH = "/api/icon";

/** Props for {@link ToolIcon}. */
export interface ToolIconProps {
  /** The `icons` array of a tool or server (untrusted; unsafe sources are ignored). */
  icons?: Icon[];
  /** Name used for the fallback tile's letter and the alt text. */
  name: string;
  /** Rendered size in CSS pixels. Default 32. */
  size?: number;
  testId?: string;
}

function sizeScore(icon: Icon, want: number): number {
  const sizes = Array.isArray(icon.sizes) ? icon.sizes : [];
  if (sizes.includes("any") || icon.mimeType === "image/svg+xml") return 0;
  let best = 1000;
  for (const s of sizes) {
    const m = /^(\d+)x(\d+)$/.exec(s);
    if (!m) continue;
    const n = Number(m[1]);
    // Prefer the smallest icon at least twice the display size (sharp on HiDPI), then larger ones.
    const score = n >= want * 2 ? n - want * 2 : 500 + (want * 2 - n);
    best = Math.min(best, score);
  }
  return best;
}

function pick(icons: Icon[], want: number): Icon | undefined {
  return [...icons].sort((a, b) => sizeScore(a, want) - sizeScore(b, want))[0];
}

const TILE_COLOURS = [
  "bg-accent-600 text-white",
  "bg-emerald-600 text-white",
  "bg-amber-500 text-zinc-950",
  "bg-rose-600 text-white",
  "bg-sky-600 text-white",
  "bg-violet-600 text-white",
];

function tileColour(name: string): string {
  let h = 0;
  for (const c of name) h = (h * 31 + c.codePointAt(0)!) >>> 0;
  return TILE_COLOURS[h % TILE_COLOURS.length];
}

const isDataSrc = (src: string): boolean => /^data:/i.test(src.trim());

/**
 * Whether an icon can be shown: data:image URIs inline as they are; https: ones through the proxy, except those
 * declared or named as SVG, which the proxy refuses (SVG can carry script), so a raster sibling wins instead.
 */
function usable(icon: Icon): boolean {
  if (!icon || !isSafeImageSrc(icon.src)) return false;
  if (isDataSrc(icon.src)) return true;
  return icon.mimeType?.toLowerCase() !== "image/svg+xml" && !/\.svgz?$/i.test(new URL(icon.src.trim()).pathname);
}

/** What the browser loads: a data: image itself, anything else from our own origin. */
function displaySrc(src: string): string {
  const s = src.trim();
  return isDataSrc(s) ? s : `${ICON_PROXY_PATH}?src=${encodeURIComponent(s)}`;
}

/** The letter tile: the whole icon when there is none, else the layer under the image. */
function LetterTile({ name, size, className, testId }: { name: string; size: number; className: string; testId?: string }) {
  const letter = ([...name.trim()][0] ?? "?").toUpperCase();
  return (
    <span
      data-testid={testId}
      data-fallback={testId ? "true" : undefined}
      aria-hidden
      style={{ width: size, height: size, fontSize: Math.max(10, Math.round(size * 0.45)) }}
      className={`shrink-0 place-items-center rounded font-semibold ${tileColour(name)} ${className}`}
    >
      {letter}
    </span>
  );
}

/**
 * A tool/server icon: data:image sources inline, https: ones through /api/icon (never from their host), no
 * referrer, lazily loaded. Themed icons render as a light/dark pair switched by the `.dark` class; without a
 * usable icon, a letter tile.
 *
 * No onError (this is a server component): the letter tile always sits under the image. A failed load of an
 * `alt=""` image is an empty inline box that paints nothing, so the tile shows; a loaded one covers it with
 * the page background, so the letter never shows through a transparent icon.
 */
export function ToolIcon({ icons, name, size = 32, testId = "tool-icon" }: ToolIconProps) {
  const safe = (Array.isArray(icons) ? icons : []).filter(usable);
  const light =
    pick(
      safe.filter((i) => i.theme === "light"),
      size,
    ) ??
    pick(
      safe.filter((i) => !i.theme),
      size,
    );
  const dark =
    pick(
      safe.filter((i) => i.theme === "dark"),
      size,
    ) ??
    pick(
      safe.filter((i) => !i.theme),
      size,
    );

  if (!light && !dark) return <LetterTile name={name} size={size} className="inline-grid" testId={testId} />;
  // Inline on purpose (Tailwind's preflight makes images blocks): only an inline broken image collapses to nothing.
  const image = (icon: Icon, display: string, variant?: "light" | "dark") => (
    <img
      alt=""
      src={displaySrc(icon.src)}
      width={size}
      height={size}
      loading="lazy"
      decoding="async"
      referrerPolicy="no-referrer"
      data-theme-variant={variant}
      data-proxied={isDataSrc(icon.src) ? undefined : "true"}
      className={`relative rounded bg-white object-contain align-top dark:bg-zinc-950 ${display}`}
    />
  );
  const themed = light && dark && light.src !== dark.src;
  return (
    <span
      data-testid={testId}
      data-themed={themed ? "true" : undefined}
      aria-hidden
      className="relative inline-block shrink-0 overflow-hidden rounded align-middle"
      style={{ width: size, height: size }}
    >
      <LetterTile name={name} size={size} className="absolute inset-0 grid" />
      {themed ? (
        <>
          {image(light, "inline dark:hidden", "light")}
          {image(dark, "hidden dark:inline", "dark")}
        </>
      ) : (
        image((light ?? dark)!, "inline")
      )}
    </span>
  );
}
