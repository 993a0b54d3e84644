import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const here = new URL(".", import.meta.url);
const sources = readFileSync(new URL("MCP_SCHEMA_SOURCES.md", here), "utf8");

for (const file of ["mcp-schema-2026-07-28.json", "mcp-schema-2025-11-25.json"]) {
  test(`${file} matches the checksum recorded in MCP_SCHEMA_SOURCES.md`, () => {
    const row = sources.split("\n").find((l) => l.includes(`\`${file}\``));
    assert.ok(row, `no row for ${file}`);
    const recorded = /`([0-9a-f]{64})`/.exec(row)?.[1];
    const actual = createHash("sha256")
      .update(readFileSync(new URL(file, here)))
      .digest("hex");
    assert.equal(actual, recorded);
  });
}

/**
 * The shared reference folder beside the repository (../shared/reference from the repo root, found from this file
 * rather than the working directory), when this checkout has one.
 */
const reference = fileURLToPath(new URL("../../../shared/reference/", here));

for (const [file, revision] of [
  ["mcp-schema-2026-07-28.json", "2026-07-28"],
  ["mcp-schema-2025-11-25.json", "2025-11-25"],
]) {
  test(`${file} is byte for byte the reference schema of ${revision} (when ../shared/reference is present)`, (t) => {
    const source = join(reference, `spec-${revision}`, "schema.json");
    if (!existsSync(source)) {
      t.skip(`${source} is not present in this checkout`);
      return;
    }
    assert.ok(readFileSync(new URL(file, here)).equals(readFileSync(source)), `${file} differs from ${source}`);
  });
}
