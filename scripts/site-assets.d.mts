/** The static docs site's stylesheet and search script, built from the clone's sources (site-assets.mjs). */
export function buildSiteAssets(): Promise<{ css: string; search: string }>;
