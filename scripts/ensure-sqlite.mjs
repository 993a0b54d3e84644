// Share's local store needs SQLite. Node 22.13+ has it built in (node:sqlite) and needs nothing. On an older Node the
// store uses better-sqlite3, whose install script the project does not run (package.json allowScripts): it compiles
// from source for about 70 s, most of an install, since its prebuilt binaries come from a host this machine cannot
// reach. startSqliteBuild() builds it once, where it is needed, in a child process: `npm start` serves meanwhile (only
// Share needs it), the test commands wait for it beside the Next.js build. Run directly, it builds and waits.
import { spawn, spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { existsSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { builtinSqlite } from "./sqlite-builtin.mjs";

const require = createRequire(import.meta.url);

function loads() {
  try {
    const Database = require("better-sqlite3");
    new Database(":memory:").close();
    return true;
  } catch {
    return false;
  }
}

/** Resolves once SQLite can be opened (at once when it can already); rejects with what to do when it cannot. */
export function startSqliteBuild() {
  if (builtinSqlite() || loads()) return Promise.resolve();
  let dir;
  try {
    dir = path.dirname(require.resolve("better-sqlite3/package.json"));
  } catch {
    return Promise.reject(
      new Error("better-sqlite3 is not installed: run npm install first (or use Node 22.13+, which has SQLite built in)."),
    );
  }
  // npm's own node-gyp (npm names it to the scripts it runs), else the one beside this Node.
  const gyp = [
    process.env.npm_config_node_gyp,
    path.join(path.dirname(process.execPath), "../lib/node_modules/npm/node_modules/node-gyp/bin/node-gyp.js"),
  ].find((p) => p && existsSync(p));
  if (!gyp) return Promise.reject(new Error("node-gyp was not found to build better-sqlite3; use Node 22.13+, which has SQLite built in."));
  console.log(
    `[toolscope] Node ${process.versions.node} has no built-in SQLite (22.13+ has): building better-sqlite3 for Share's local store, once (about a minute of one core)…`,
  );
  const started = Date.now();
  // npm's settings reach node-gyp through the environment when npm runs the script; run directly, ask npm for the one
  // that matters offline (nodedir: build against Node's own headers instead of downloading them).
  const env = { ...process.env };
  if (!env.npm_config_nodedir) {
    const nodedir = spawnSync(process.platform === "win32" ? "npm.cmd" : "npm", ["config", "get", "nodedir"], {
      encoding: "utf8",
    }).stdout?.trim();
    if (nodedir && nodedir !== "undefined" && nodedir !== "null") env.npm_config_nodedir = nodedir;
  }
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [gyp, "rebuild", "--release"], { cwd: dir, env, stdio: ["ignore", "ignore", "pipe"] });
    let errors = "";
    child.stderr.on("data", (b) => (errors = (errors + b.toString()).slice(-4_000)));
    child.on("error", reject);
    child.on("exit", (code) => {
      if (code === 0 && loads()) {
        console.log(`[toolscope] better-sqlite3 built in ${Math.round((Date.now() - started) / 1000)} s.`);
        resolve();
      } else reject(new Error(`building better-sqlite3 failed (it needs python3, make and a C++ compiler):\n${errors}`));
    });
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  startSqliteBuild().catch((err) => {
    console.error(`[toolscope] ${err.message}`);
    process.exit(1);
  });
}
