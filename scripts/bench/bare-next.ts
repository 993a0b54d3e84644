/**
 * The bench's floor: a bare Next.js app (scripts/bench/bare-next/) of the same Next.js version as Toolscope, built in
 * a folder of its own and served by `next start`, the way Next.js serves production. Whatever Toolscope's custom
 * server, request hook, guard and logging cost per request shows as the difference to it.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { freePort, served, type BenchApp } from "./app.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");
const TEMPLATE = path.join(import.meta.dirname, "bare-next");
/** Inside the repository (gitignored), so `next` and React resolve from its node_modules. */
const BUILD_DIR = path.join(ROOT, ".bench", "bare-next");
const NEXT_BIN = path.join(ROOT, "node_modules", "next", "dist", "bin", "next");

export type BareNextApp = BenchApp;

/** A digest of the template's files and the Next.js version: the build is redone when either changes. */
function templateDigest(): string {
  const hash = createHash("sha256");
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else hash.update(path.relative(TEMPLATE, full)).update("\0").update(readFileSync(full)).update("\0");
    }
  };
  walk(TEMPLATE);
  hash.update((JSON.parse(readFileSync(path.join(ROOT, "node_modules", "next", "package.json"), "utf8")) as { version: string }).version);
  return hash.digest("hex");
}

/** Copy and build the bare app unless the build in place is of these files. */
export function buildBareNext(): void {
  const digest = templateDigest();
  const stamp = path.join(BUILD_DIR, ".template-digest");
  if (existsSync(stamp) && readFileSync(stamp, "utf8") === digest && existsSync(path.join(BUILD_DIR, ".next", "BUILD_ID"))) return;
  rmSync(BUILD_DIR, { recursive: true, force: true });
  mkdirSync(BUILD_DIR, { recursive: true });
  cpSync(TEMPLATE, BUILD_DIR, { recursive: true });
  console.log("Building the bare Next.js app (scripts/bench/bare-next, about half a minute)…");
  const built = spawnSync(process.execPath, [NEXT_BIN, "build", BUILD_DIR], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" },
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  if (built.status !== 0) throw new Error(`next build of the bare app failed:\n${built.stdout}${built.stderr}`);
  writeFileSync(stamp, digest);
}

/** Build if needed, start `next start` on a free loopback port, and resolve once its health route answers. */
export async function startBareNext(nodeArgs: string[] = []): Promise<BareNextApp> {
  buildBareNext();
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [...nodeArgs, NEXT_BIN, "start", BUILD_DIR, "-H", "127.0.0.1", "-p", String(port)], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" },
    stdio: ["ignore", "ignore", "pipe"],
  });
  return served(child, `http://127.0.0.1:${port}`, "The bare Next.js app");
}
