import { test as base, expect } from "@playwright/test";

/**
 * The suite's `test`: every page fails its test on a Content-Security-Policy violation (the app runs under its real
 * headers), and the `request` fixture calls our API as our own pages do (with our Origin, which the request guard
 * requires of every API call; a script that calls the API must send it too).
 */
export const test = base.extend<{ cspViolations: string[] }>({
  cspViolations: [
    async ({ page }, provide) => {
      const violations: string[] = [];
      page.on("console", (msg) => {
        const text = msg.text();
        if (/Content Security Policy|Refused to (load|execute|apply|connect|frame|create)/i.test(text)) violations.push(text);
      });
      await provide(violations);
      expect(violations, "Content-Security-Policy violations on the page").toEqual([]);
    },
    { auto: true },
  ],
  request: async ({ playwright, baseURL }, provide) => {
    const ctx = await playwright.request.newContext({ baseURL, extraHTTPHeaders: baseURL ? { origin: new URL(baseURL).origin } : {} });
    await provide(ctx);
    await ctx.dispose();
  },
});

export { expect };
