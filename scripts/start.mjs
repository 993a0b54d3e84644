// `npm start`: build when needed, then serve on loopback in local mode (http://localhost:3000 by default).
import { spawn } from "node:child_process";
import { buildIfNeeded } from "./build-if-needed.mjs";

buildIfNeeded();
const host = process.env.HOST ?? "127.0.0.1";
const port = process.env.PORT ?? "3000";
const child = spawn(process.execPath, ["node_modules/next/dist/bin/next", "start", "-H", host, "-p", port], {
  stdio: "inherit",
  env: { NEXT_TELEMETRY_DISABLED: "1", ...process.env },
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code) => process.exit(code ?? 0));
