// Builds the app when there is no production build or the sources are newer than it.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

const SOURCES = [
  "app",
  "components",
  "lib",
  "public",
  "package.json",
  "package-lock.json",
  "next.config.ts",
  "postcss.config.mjs",
  "tsconfig.json",
];

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

export function buildIfNeeded() {
  // NEXT_DIST_DIR: a second build folder (next.config.ts), so a check build can run beside another one.
  const buildId = join(process.env.NEXT_DIST_DIR ?? ".next", "BUILD_ID");
  const built = existsSync(buildId) ? statSync(buildId).mtimeMs : 0;
  const changed = Math.max(...SOURCES.map(newestMtime));
  if (built && built >= changed) {
    console.log("[toolscope] production build is up to date");
    return;
  }
  console.log(
    built
      ? "[toolscope] sources changed since the last build: building again (Next.js shows its steps below)…"
      : "[toolscope] no production build yet: building it once (Next.js shows its steps below)…",
  );
  // No type check on this path: `npm run typecheck` (and CI) does it, and in the build it cost about a third of the
  // time to the first page (issue 26: 23 of 63 s on this machine). An explicit `npm run build` still checks.
  const r = spawnSync(process.execPath, ["node_modules/next/dist/bin/next", "build"], {
    stdio: "inherit",
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", TOOLSCOPE_BUILD_TYPECHECK: "0" },
  });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
