#!/usr/bin/env node
// `toolscope` from a clone of the repository (`npx toolscope`, `npm exec toolscope`): runs the command line's
// TypeScript sources through tsx, which the clone's install brings. The packed CLI runs its own bundle instead
// (scripts/build-cli.mjs).
import { readFileSync } from "node:fs";
import { tsImport } from "tsx/esm/api";

// React's production build, as the packed CLI bundles it (the development one renders the docs site several times slower).
process.env.NODE_ENV ??= "production";
const { version } = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
const { runCli } = await tsImport("../cli/src/run.ts", import.meta.url);
await runCli(version);
