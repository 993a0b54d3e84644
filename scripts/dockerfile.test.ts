import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";

// The image is not built on the development machine (no Docker engine), so nothing else would notice that the
// runtime stage lacks a module the server loads before the app: the container would exit at start.

const ROOT = join(import.meta.dirname, "..");

/** Every file scripts/server.mjs loads by a relative path (imports and worker URLs), transitively, from the root. */
function localModules(entry: string, seen = new Set<string>()): Set<string> {
  if (seen.has(entry)) return seen;
  seen.add(entry);
  const text = readFileSync(join(ROOT, entry), "utf8");
  for (const m of text.matchAll(/(?:from\s+|import\(|new URL\()\s*"(\.{1,2}\/[^"]+)"/g))
    localModules(relative(ROOT, join(ROOT, dirname(entry), m[1])), seen);
  return seen;
}

/** The source paths the Dockerfile's last stage copies from the build stage, as globs. */
function runtimeCopies(): RegExp[] {
  const dockerfile = readFileSync(join(ROOT, "Dockerfile"), "utf8");
  const last = dockerfile.slice(dockerfile.lastIndexOf("\nFROM "));
  return [...last.matchAll(/^COPY --from=build (.+) \S+$/gm)]
    .flatMap((m) => m[1].split(/\s+/))
    .map((p) => p.replace(/^\/app\//, ""))
    .map((p) => new RegExp(`^${p.replace(/[.]/g, "\\.").replace(/\*/g, "[^/]*")}(/.*)?$`));
}

test("the Dockerfile's runtime stage copies every module scripts/server.mjs loads before the app", () => {
  const modules = [...localModules("scripts/server.mjs")];
  assert.ok(
    modules.includes("scripts/health-worker.mjs") && modules.includes("lib/log/safe-write.mjs"),
    "the walk follows imports and worker URLs",
  );
  const copies = runtimeCopies();
  const missing = modules.filter((m) => !copies.some((c) => c.test(m)));
  assert.deepEqual(missing, [], `add to the Dockerfile's last stage: ${missing.join(", ")}`);
});
