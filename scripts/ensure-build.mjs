import { buildIfNeeded } from "./build-if-needed.mjs";
import { startSqliteBuild } from "./ensure-sqlite.mjs";

// Node < 22.13 only: better-sqlite3 compiles beside the Next.js build (ensure-sqlite.mjs).
const sqlite = startSqliteBuild();
buildIfNeeded();
try {
  await sqlite;
} catch (err) {
  console.error(`[toolscope] ${err.message}`);
  process.exit(1);
}
