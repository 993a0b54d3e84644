/**
 * Reading a V8 `.cpuprofile` (what `node --cpu-prof` writes): the profile scripts' shared part.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

export interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

export interface CpuProfile {
  nodes: ProfileNode[];
  /** Microseconds on the system's monotonic clock: the one `process.hrtime` reads, in any process. */
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** The one profile a process wrote into `dir`. */
export function readProfile(dir: string): { file: string; profile: CpuProfile } {
  const name = readdirSync(dir).find((f) => f.endsWith(".cpuprofile"));
  if (!name) throw new Error(`No .cpuprofile in ${dir}`);
  const file = join(dir, name);
  return { file, profile: JSON.parse(readFileSync(file, "utf8")) as CpuProfile };
}

/** Where a script URL comes from: a package name, Next's server chunks, Node itself, or our own code. */
export function origin(url: string): string {
  if (!url) return "(native)";
  if (url.startsWith("node:")) return "node:internal";
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1];
  if (url.includes("/.next")) return "next server chunks (app code + bundled deps)";
  return url
    .replace(/^file:\/\//, "")
    .split("/")
    .slice(-2)
    .join("/");
}

/** A sample's function as one line: its name and where it comes from. */
export function frameKey(node: ProfileNode): string {
  const { functionName, url, lineNumber } = node.callFrame;
  return `${functionName || "(anonymous)"}  ${origin(url)}:${lineNumber + 1}`;
}

/**
 * Self time per function (microseconds) of the samples taken between `fromUs` and `toUs` (monotonic clock). Samples
 * are attributed as V8 records them: a syscall the process sleeps in (writev to a socket whose reader then runs on
 * this core) counts as that function's time, and "(idle)" is the event loop waiting.
 */
export function selfTimeBetween(profile: CpuProfile, fromUs = -Infinity, toUs = Infinity): Map<string, number> {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const out = new Map<string, number>();
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    at += delta;
    if (at < fromUs || at > toUs) return;
    const key = frameKey(byId.get(id)!);
    out.set(key, (out.get(key) ?? 0) + delta);
  });
  return out;
}
