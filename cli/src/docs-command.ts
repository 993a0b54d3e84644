/**
 * `toolscope docs`: a static docs site for a server or snapshot, rendered by the web docs' own components
 * (components/static-docs) into a folder: index.html, a page per tool, the stylesheet. Relative links only, so it
 * works from file:// and any static host; the pages' policy lets no script run but the site's own two.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { THEME_INIT_SCRIPT, THEME_TOGGLE_SCRIPT } from "@/components/layout/theme-script";
import { EXIT, usageError } from "@/lib/cli/exit-codes";
import { prepare, type Command } from "@/lib/cli/commands";
import { singleTarget, str } from "@/lib/cli/flags";
import { loadTarget } from "@/lib/cli/load-target";
import { siteAssets } from "./site-assets";

const CSS_FILE = "toolscope.css";

const sha256 = (text: string) => `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;

/** The pages' policy: nothing from the network, styles from the site, and only the site's own scripts by hash. */
export function sitePolicy(scripts: readonly string[]): string {
  return [
    "default-src 'none'",
    `script-src ${scripts.map(sha256).join(" ")}`,
    // file: for pages opened from disk, where 'self' matches nothing.
    "style-src 'self' file: 'unsafe-inline'",
    "img-src data:",
    "base-uri 'none'",
    "form-action 'none'",
  ].join("; ");
}

export const docs: Command = {
  summary: "write a static docs site for a server or snapshot",
  usage: `toolscope docs <server | snapshot.json> --out <folder>

A static site of the web docs: index.html (overview, the tool index with search, checks) and a page per tool
(badges with the spec's defaults, parameters, output schema, cache metadata, checks, what the model sees, the MCP
App card), with relative links: open it from disk or put it on any static host. Nothing from the server runs there.

  -o, --out <folder>         where to write the site (created; files of an earlier site there are replaced)
  (and the server flags of \`toolscope snapshot --help\`)`,
  async run(args, ctx) {
    const { values, positionals, access, limits } = prepare("docs", args, ctx, { out: { type: "string", short: "o" } });
    const outDir = str(values.out);
    if (!outDir) throw usageError("docs needs --out <folder>, where the site is written.");
    const target = singleTarget("docs", values, positionals);
    const snap = await loadTarget(target, access, limits, ctx.out);
    // React and the docs components load for this command only: from a clone, tsx would otherwise compile them at
    // every start of every command (lint from a clone took 1.5 s instead of 0.9 s).
    const { renderDocsSite } = await import("@/components/static-docs/render-site");
    const assets = await siteAssets();
    const themeScript = `${THEME_INIT_SCRIPT}${THEME_TOGGLE_SCRIPT}`;
    const started = performance.now();
    const pages = renderDocsSite(
      {
        source: snap.source,
        server: { ...snap.server, supportedVersions: snap.server.supportedVersions ?? [], displayUrl: snap.source },
        tools: snap.list.tools,
        excluded: snap.list.excluded,
        ttlMs: snap.list.ttlMs,
        cacheScope: snap.list.cacheScope,
        generator: `toolscope ${ctx.version}`,
      },
      { cssFile: CSS_FILE, csp: sitePolicy([themeScript, assets.search]), themeScript, searchScript: assets.search },
    );
    const dir = resolve(outDir);
    mkdirSync(dir, { recursive: true });
    // An earlier site's pages go (a tool that is gone must not keep its page); other files stay.
    for (const f of readdirSync(dir))
      if (f === "index.html" || f === CSS_FILE || /^tool-[A-Za-z0-9_.-]+\.html$/.test(f)) rmSync(join(dir, f));
    writeFileSync(join(dir, CSS_FILE), assets.css);
    for (const p of pages) writeFileSync(join(dir, p.file), p.html);
    ctx.out.progress(
      `wrote ${pages.length} pages to ${outDir} in ${Math.round(performance.now() - started)} ms: open ${join(outDir, "index.html")}`,
    );
    return EXIT.ok;
  },
};
