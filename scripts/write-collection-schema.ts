/**
 * Writes docs/collection.schema.json from lib/collections/collection-schema.ts (the parser's schema), as canonical
 * JSON: `node --import tsx scripts/write-collection-schema.ts`. lib/collections/parse-collection.test.ts fails while
 * the two differ.
 */
import { writeFileSync } from "node:fs";
import { canonicalJson } from "../lib/json/canonical.ts";
import { COLLECTION_SCHEMA } from "../lib/collections/collection-schema.ts";

const file = new URL("../docs/collection.schema.json", import.meta.url);
writeFileSync(file, `${canonicalJson(COLLECTION_SCHEMA, 2)}\n`);
console.log(`wrote ${file.pathname.split("/").slice(-2).join("/")}`);
