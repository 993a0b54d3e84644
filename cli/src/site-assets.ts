/**
 * The static site's stylesheet and search script: built into the packed CLI (scripts/build-cli.mjs defines
 * TOOLSCOPE_SITE_ASSETS), or built from a clone's sources on the first `docs` run (scripts/site-assets.mjs).
 */
declare const TOOLSCOPE_SITE_ASSETS: { css: string; search: string } | undefined;

let built: Promise<{ css: string; search: string }> | undefined;

export function siteAssets(): Promise<{ css: string; search: string }> {
  if (typeof TOOLSCOPE_SITE_ASSETS !== "undefined") return Promise.resolve(TOOLSCOPE_SITE_ASSETS);
  built ??= import("../../scripts/site-assets.mjs").then((m) => m.buildSiteAssets());
  return built;
}
