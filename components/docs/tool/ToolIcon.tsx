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

function tileIndex(name: string): number {
  let h = 0;
  for (const c of name) h = (h * 31 + c.codePointAt(0)!) >>> 0;
  return h % TILE_COLOURS.length;
}

function tileColour(name: string): string {
  return TILE_COLOURS[tileIndex(name)];
}

function tileLetter(name: string): string {
  return ([...name.trim()][0] ?? "?").toUpperCase();
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

/** The icon to show on a light and on a dark page (the same one when the server does not theme them), if any. */
function choose(icons: Icon[] | undefined, size: number): { light?: Icon; dark?: Icon } {
  const safe = (Array.isArray(icons) ? icons : []).filter(usable);
  const plain = () =>
    pick(
      safe.filter((i) => !i.theme),
      size,
    );
  return {
    light:
      pick(
        safe.filter((i) => i.theme === "light"),
        size,
      ) ?? plain(),
    dark:
      pick(
        safe.filter((i) => i.theme === "dark"),
        size,
      ) ?? plain(),
  };
}

/** What the browser loads: a data: image itself, anything else from our own origin. */
function displaySrc(src: string): string {
  const s = src.trim();
  return isDataSrc(s) ? s : `${ICON_PROXY_PATH}?src=${encodeURIComponent(s)}`;
}

/** The letter tile: the whole icon when there is none, else the layer under the image. */
function LetterTile({ name, size, className, testId }: { name: string; size: number; className: string; testId?: string }) {
  const letter = tileLetter(name);
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
 * For the element around rows with {@link ListToolIcon}: the look of its 20 px icons and letter tiles, once per list
 * rather than ~200 bytes of style and classes on each of (maybe) thousands of rows. `data-tile` is the TILE_COLOURS
 * index; `data-icon` wraps an image over its tile, as ToolIcon does.
 */
export const LIST_ICON_CLASS = [
  "[&_[data-tile]]:inline-grid [&_[data-tile]]:h-5 [&_[data-tile]]:w-5 [&_[data-tile]]:shrink-0 [&_[data-tile]]:place-items-center",
  "[&_[data-tile]]:rounded [&_[data-tile]]:text-[10px] [&_[data-tile]]:font-semibold",
  "[&_[data-tile='0']]:bg-accent-600 [&_[data-tile='0']]:text-white",
  "[&_[data-tile='1']]:bg-emerald-600 [&_[data-tile='1']]:text-white",
  "[&_[data-tile='2']]:bg-amber-500 [&_[data-tile='2']]:text-zinc-950",
  "[&_[data-tile='3']]:bg-rose-600 [&_[data-tile='3']]:text-white",
  "[&_[data-tile='4']]:bg-sky-600 [&_[data-tile='4']]:text-white",
  "[&_[data-tile='5']]:bg-violet-600 [&_[data-tile='5']]:text-white",
  "[&_[data-icon]]:relative [&_[data-icon]]:inline-block [&_[data-icon]]:h-5 [&_[data-icon]]:w-5 [&_[data-icon]]:shrink-0",
  "[&_[data-icon]]:overflow-hidden [&_[data-icon]]:rounded [&_[data-icon]]:align-middle",
  "[&_[data-icon]>[data-tile]]:absolute [&_[data-icon]>[data-tile]]:inset-0 [&_[data-icon]>[data-tile]]:grid",
  "[&_[data-icon]>img]:relative [&_[data-icon]>img]:inline [&_[data-icon]>img]:rounded [&_[data-icon]>img]:bg-white",
  "[&_[data-icon]>img]:object-contain [&_[data-icon]>img]:align-top dark:[&_[data-icon]>img]:bg-zinc-950",
].join(" ");

/**
 * A tool's icon in a list row (20 px), styled by LIST_ICON_CLASS: a bare letter tile when the tool has no usable
 * icon, the image over its tile when it has one; a themed pair is rare enough to render as {@link ToolIcon} does.
 */
export function ListToolIcon({ icons, name }: { icons?: Icon[]; name: string }) {
  const { light, dark } = choose(icons, 20);
  const tile = (
    <span data-tile={tileIndex(name)} aria-hidden>
      {tileLetter(name)}
    </span>
  );
  if (!light && !dark) return tile;
  if (light && dark && light.src !== dark.src) return <ToolIcon icons={icons} name={name} size={20} />;
  const icon = (light ?? dark)!;
  return (
    <span data-icon="" aria-hidden>
      {tile}
      <img
        alt=""
        src={displaySrc(icon.src)}
        width={20}
        height={20}
        loading="lazy"
        decoding="async"
        referrerPolicy="no-referrer"
        data-proxied={isDataSrc(icon.src) ? undefined : "true"}
      />
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
  const { light, dark } = choose(icons, size);
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
