// `npm start`: build when needed, then serve on loopback in local mode (http://localhost:3000 by default).
import { spawn } from "node:child_process";
import { constants } from "node:os";
import { buildIfNeeded } from "./build-if-needed.mjs";

buildIfNeeded();
const child = spawn(process.execPath, ["scripts/server.mjs"], {
  stdio: "inherit",
  env: { NEXT_TELEMETRY_DISABLED: "1", NODE_ENV: "production", ...process.env },
});
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, () => child.kill(signal));
// A supervisor restarts on a non-zero status: a crash or a kill of the server must not look like a clean exit.
child.on("exit", (code, signal) => process.exit(code ?? 128 + (signal ? (constants.signals[signal] ?? 1) : 1)));
