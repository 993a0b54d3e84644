import { existsSync } from "node:fs";

/** The Chromium to drive: $CHROMIUM_PATH, else Debian's /usr/bin/chromium, else Playwright's own (undefined). */
export function chromiumPath(): string | undefined {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv && existsSync(fromEnv)) return fromEnv;
  return existsSync("/usr/bin/chromium") ? "/usr/bin/chromium" : undefined;
}

export const CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"];
