/**
 * Inline SVG icons for the demo's tools, as `data:` URIs (no network fetch, nothing to host).
 * Some tools carry a light and a dark variant so clients can pick by theme.
 */
import type { Icon } from "@modelcontextprotocol/server";

function svgIcon(body: string, stroke: string, theme?: "light" | "dark"): Icon {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" fill="none" stroke="${stroke}" stroke-width="2" stroke-linecap="round" stroke-linejoin="round">${body}</svg>`;
  return {
    src: `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}`,
    mimeType: "image/svg+xml",
    sizes: ["any"],
    ...(theme ? { theme } : {}),
  };
}

const SEARCH = `<circle cx="11" cy="11" r="7"/><path d="m20 20-3.5-3.5"/>`;
const ISSUE = `<circle cx="12" cy="12" r="9"/><circle cx="12" cy="12" r="1.5"/>`;
const DATABASE = `<ellipse cx="12" cy="5" rx="8" ry="3"/><path d="M4 5v14c0 1.7 3.6 3 8 3s8-1.3 8-3V5"/><path d="M4 12c0 1.7 3.6 3 8 3s8-1.3 8-3"/>`;
const CHART = `<path d="M3 21h18"/><rect x="5" y="11" width="3" height="7"/><rect x="11" y="6" width="3" height="12"/><rect x="17" y="14" width="3" height="4"/>`;
const BASKET = `<path d="M5 10h14l-1.5 10h-11z"/><path d="m9 10 3-6 3 6"/>`;
const TRASH = `<path d="M4 7h16"/><path d="M6 7l1 13h10l1-13"/><path d="M9 7V4h6v3"/>`;

const LIGHT_INK = "#1f2937";
const DARK_INK = "#e5e7eb";

/** Both themes: dark strokes for light backgrounds, light strokes for dark backgrounds. */
function themed(body: string): Icon[] {
  return [svgIcon(body, LIGHT_INK, "light"), svgIcon(body, DARK_INK, "dark")];
}

export const ICONS = {
  search: themed(SEARCH),
  issue: [svgIcon(ISSUE, "#16a34a")],
  database: themed(DATABASE),
  chart: [svgIcon(CHART, "#2563eb")],
  basket: [svgIcon(BASKET, "#d97706")],
  trash: [svgIcon(TRASH, "#dc2626")],
} as const satisfies Record<string, Icon[]>;
