// Types for scripts/ensure-browser.mjs (plain Node ESM, imported by playwright/browser.ts and its unit test).

export const DEBIAN_CHROMIUM: "/usr/bin/chromium";

/** Everything decideBrowser() looks at. */
export interface BrowserFacts {
  /** $CHROMIUM_PATH, when set and non-empty. */
  chromiumPathEnv: string | undefined;
  exists(path: string): boolean;
  /** Playwright's own Chromium: [full browser, headless shell]; undefined when Playwright cannot say. */
  playwrightChromium: string[] | undefined;
  isRoot: boolean;
  /** Path of apt-get, when there is one. */
  aptGet: string | undefined;
  /** False when TOOLSCOPE_BROWSER_INSTALL=0. */
  installAllowed: boolean;
}

export type BrowserDecision =
  | { action: "use"; source: "CHROMIUM_PATH" | "debian" | "playwright"; path: string; warnings: string[] }
  | { action: "install"; via: "apt" | "playwright"; command: string[]; warnings: string[] }
  | { action: "fail"; reason: string; warnings: string[] };

/** The Chromium named by $CHROMIUM_PATH or Debian's, when it exists; undefined means Playwright's own. */
export function findChromium(env?: Record<string, string | undefined>, exists?: (path: string) => boolean): string | undefined;
/** What to do, from what exists (pure). */
export function decideBrowser(facts: BrowserFacts): BrowserDecision;
/** The facts decideBrowser() needs, read from this machine. */
export function browserFacts(env?: Record<string, string | undefined>): BrowserFacts;
/** Find a Chromium or install one; returns the decision that held in the end, or throws with the reason. */
export function ensureBrowser(log?: (line: string) => void): Extract<BrowserDecision, { action: "use" }>;
