// The packed CLI: bundles cli/src/standalone.ts with everything it imports (the MCP SDK, undici, ajv, …) into one
// file, cli/dist/toolscope.mjs, so the package has no dependencies and installs offline; `--pack` then writes the
// tarball (npm pack) into cli/. The version is the repository's (package.json), in the bundle and the package.
//
//   node scripts/build-cli.mjs [--pack]
import { build } from "esbuild";
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { buildSiteAssets } from "./site-assets.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const { version } = JSON.parse(readFileSync(`${root}package.json`, "utf8"));

const started = performance.now();
// The static docs site's stylesheet and search script go in built: the package has no Tailwind or esbuild.
const siteAssets = await buildSiteAssets();
const result = await build({
  absWorkingDir: root,
  entryPoints: ["cli/src/standalone.ts"],
  outfile: "cli/dist/toolscope.mjs",
  bundle: true,
  platform: "node",
  format: "esm",
  // ESM builds first: a UMD main (jsonc-parser's) requires its own files at run time, which a bundle does not ship.
  mainFields: ["module", "main"],
  target: "node20",
  minify: true,
  legalComments: "none",
  metafile: true,
  define: {
    TOOLSCOPE_CLI_VERSION: JSON.stringify(version),
    TOOLSCOPE_SITE_ASSETS: JSON.stringify(siteAssets),
    "process.env.NODE_ENV": '"production"',
  },
  // The docs components link with next/link; in a static site that is a plain <a> (cli/src/next-link.tsx).
  alias: { "next/link": "./cli/src/next-link.tsx" },
  // A clone builds the site's assets on the fly (Tailwind, esbuild); the bundle has them built in instead.
  external: ["../../scripts/site-assets.mjs"],
  // CommonJS dependencies inside an ES module bundle still call require() for Node's own modules.
  banner: {
    js: "#!/usr/bin/env node\nimport { createRequire as __toolscopeRequire } from 'node:module'; const require = __toolscopeRequire(import.meta.url);",
  },
  logLevel: "warning",
});
const bytes = Object.values(result.metafile.outputs).reduce((n, o) => n + o.bytes, 0);
console.error(`[build-cli] cli/dist/toolscope.mjs: ${(bytes / 1024).toFixed(0)} KB in ${Math.round(performance.now() - started)} ms`);

// The package carries the repository's version and its README from docs/cli.md.
const pkgFile = `${root}cli/package.json`;
const pkg = JSON.parse(readFileSync(pkgFile, "utf8"));
writeFileSync(`${root}cli/README.md`, readFileSync(`${root}docs/cli.md`, "utf8"));
if (process.argv.includes("--pack")) {
  const packed = { ...pkg, version };
  writeFileSync(pkgFile, `${JSON.stringify(packed, null, 2)}\n`);
  try {
    const out = execFileSync("npm", ["pack", "--json", "--silent"], { cwd: `${root}cli`, encoding: "utf8" });
    const [info] = JSON.parse(out);
    console.log(`${root}cli/${info.filename}`);
  } finally {
    writeFileSync(pkgFile, `${JSON.stringify(pkg, null, 2)}\n`);
  }
}
