import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";

const here = new URL(".", import.meta.url);
const sources = readFileSync(new URL("MCP_SCHEMA_SOURCES.md", here), "utf8");

for (const file of ["mcp-schema-2026-07-28.json", "mcp-schema-2025-11-25.json"]) {
  test(`${file} matches the checksum recorded in MCP_SCHEMA_SOURCES.md`, () => {
    const row = sources.split("\n").find((l) => l.includes(`\`${file}\``));
    assert.ok(row, `no row for ${file}`);
    const recorded = /`([0-9a-f]{64})`/.exec(row)?.[1];
    const actual = createHash("sha256").update(readFileSync(new URL(file, here))).digest("hex");
    assert.equal(actual, recorded);
  });
}

test("the recorded checksums are the reference files' (when the shared folder is present)", (t) => {
  let ref: Buffer;
  try {
    ref = readFileSync("/work/shared/reference/spec-2026-07-28/schema.json");
  } catch {
    t.skip("shared reference folder not present");
    return;
  }
  assert.equal(createHash("sha256").update(ref).digest("hex"), "ef70b61f99b6d2e5e3b46863822eab08dff6a45bedc7a08914e0e5b133f40203");
});
