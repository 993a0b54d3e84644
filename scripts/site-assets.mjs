// What a static docs site (`toolscope docs`) carries besides its pages: the stylesheet (Tailwind over the web app's
// app/globals.css and classes, so the pages look like the web docs) and the index's search script (lib/docs/static,
// the web index's filter rule bundled into one IIFE). The packed CLI has them built in (scripts/build-cli.mjs); from
// a clone they are built on the first `docs` run, with the clone's own PostCSS, Tailwind and esbuild.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import postcss from "postcss";
import tailwind from "@tailwindcss/postcss";

const root = fileURLToPath(new URL("..", import.meta.url));

/** @returns {Promise<{ css: string, search: string }>} */
export async function buildSiteAssets() {
  const from = `${root}app/globals.css`;
  const css = await postcss([tailwind({ base: root, optimize: { minify: true } })]).process(readFileSync(from, "utf8"), { from });
  const search = await build({
    absWorkingDir: root,
    entryPoints: ["lib/docs/static/search-entry.ts"],
    bundle: true,
    write: false,
    format: "iife",
    platform: "browser",
    target: "es2020",
    minify: true,
    legalComments: "none",
    logLevel: "warning",
  });
  return { css: css.css, search: search.outputFiles[0].text };
}
