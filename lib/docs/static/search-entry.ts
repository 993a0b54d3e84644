// The static docs site's search script (scripts/site-assets.mjs bundles this into one IIFE the pages carry).
import { startStaticSearch } from "./static-search.ts";

startStaticSearch(document);
