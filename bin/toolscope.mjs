#!/usr/bin/env node
// `toolscope` from a clone of the repository (`npx toolscope`, `npm exec toolscope`): runs the command line's
// TypeScript sources through tsx, which the clone's install brings. The packed CLI runs its own bundle instead.
import { readFileSync } from "node:fs";
import { tsImport } from "tsx/esm/api";

const { version } = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
const { main } = await tsImport("../lib/cli/main.ts", import.meta.url);
process.exitCode = await main(
  process.argv.slice(2),
  {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    stderrIsTTY: process.stderr.isTTY === true,
    env: process.env,
  },
  version,
);
