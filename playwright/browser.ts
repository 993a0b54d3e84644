import { findChromium } from "../scripts/ensure-browser.mjs";

/**
 * The Chromium to drive: $CHROMIUM_PATH, else Debian's /usr/bin/chromium, else Playwright's own (undefined).
 * `npm run test:e2e` runs scripts/ensure-browser.mjs first, which installs one when there is none.
 */
export function chromiumPath(): string | undefined {
  return findChromium();
}

export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
];
