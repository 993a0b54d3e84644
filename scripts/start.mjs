// `npm start`: build when needed, then serve on loopback in local mode (http://localhost:3000 by default).
import { buildIfNeeded } from "./build-if-needed.mjs";
import { startSqliteBuild } from "./ensure-sqlite.mjs";
import { superviseChild } from "./supervise.mjs";

// Node < 22.13 only: better-sqlite3 compiles in a child process, beside the Next.js build and the first pages; only
// Share's local store needs it, and it says so if asked before the build is done.
startSqliteBuild().catch((err) => console.error(`[toolscope] ${err.message}\nShare's local store cannot open until this is fixed.`));
buildIfNeeded();
// The server drains for TOOLSCOPE_SHUTDOWN_GRACE_MS and closes its pools within seconds after; past that it is killed.
const graceMs = Number(process.env.TOOLSCOPE_SHUTDOWN_GRACE_MS || "10000");
superviseChild("scripts/server.mjs", {
  env: { NEXT_TELEMETRY_DISABLED: "1", NODE_ENV: "production", ...process.env },
  killAfterMs: (Number.isFinite(graceMs) ? graceMs : 10_000) + 5_000,
});
