/* eslint-disable @next/next/no-img-element -- remote icons of arbitrary hosts; next/image would proxy them through our server */
import type { Icon } from "@/lib/mcp/contract";
import { isSafeImageSrc } from "@/lib/docs/markdown-safety";

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

/**
 * A tool/server icon: only https: and data:image sources, never sends a referrer, loads lazily. Themed
 * icons render as a light/dark pair switched by the `.dark` class; without a usable icon, a letter tile.
 */
export function ToolIcon({ icons, name, size = 32, testId = "tool-icon" }: ToolIconProps) {
  const safe = (Array.isArray(icons) ? icons : []).filter((i) => i && isSafeImageSrc(i.src));
  const light = pick(safe.filter((i) => i.theme === "light"), size) ?? pick(safe.filter((i) => !i.theme), size);
  const dark = pick(safe.filter((i) => i.theme === "dark"), size) ?? pick(safe.filter((i) => !i.theme), size);
  const box = { width: size, height: size };
  const common = { width: size, height: size, loading: "lazy" as const, decoding: "async" as const, referrerPolicy: "no-referrer" as const };
  const imgClass = "shrink-0 rounded object-contain";

  if (!light && !dark) {
    const letter = ([...name.trim()][0] ?? "?").toUpperCase();
    return (
      <span
        data-testid={testId}
        data-fallback="true"
        aria-hidden
        style={{ ...box, fontSize: Math.max(10, Math.round(size * 0.45)) }}
        className={`inline-grid shrink-0 place-items-center rounded font-semibold ${tileColour(name)}`}
      >
        {letter}
      </span>
    );
  }
  if (light && dark && light.src !== dark.src) {
    return (
      <span data-testid={testId} data-themed="true" className="inline-flex shrink-0" style={box} aria-hidden>
        <img {...common} alt="" src={light.src} className={`${imgClass} dark:hidden`} data-theme-variant="light" />
        <img {...common} alt="" src={dark.src} className={`${imgClass} hidden dark:inline`} data-theme-variant="dark" />
      </span>
    );
  }
  const only = (light ?? dark)!;
  return (
    <span data-testid={testId} className="inline-flex shrink-0" style={box} aria-hidden>
      <img {...common} alt="" src={only.src} className={imgClass} />
    </span>
  );
}
