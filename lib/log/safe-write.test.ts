import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";

// A real process whose log reader dies: it logs through the shared writer in a tight loop (and through console.error,
// as Next.js's own code does), with the uncaughtException handler Next.js installs (which writes the error to stderr).
const dir = mkdtempSync(join(tmpdir(), "toolscope-safe-write-"));
const started = new Set<ChildProcess>();
after(() => {
  // Also when a test timed out before its own cleanup ran.
  for (const proc of started) proc.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});
const child = join(dir, "logger.mjs");
writeFileSync(
  child,
  `import { writeLog, logWriteStats } from ${JSON.stringify(new URL("./safe-write.mjs", import.meta.url).href)};
process.on("uncaughtException", (err) => console.error(err));
process.on("SIGTERM", () => {
  // As scripts/server.mjs does: the exit waits on a timer, which a write loop would starve.
  const t = setInterval(() => {
    clearInterval(t);
    process.send(logWriteStats(), () => process.exit(0));
  }, 50);
});
writeLog("info", "ready", undefined, "text");
let n = 0;
setInterval(() => {
  n++;
  writeLog("info", "tick", { n }, "text");
  writeLog("error", "tock", { n }, "text");
  if (n % 10 === 0) console.error(new Error("a library's own line"));
}, 1);
`,
);

function start(): ChildProcess {
  const proc = spawn(process.execPath, [child], { stdio: ["ignore", "pipe", "pipe", "ipc"] });
  started.add(proc);
  return proc;
}

function firstLine(stream: NodeJS.ReadableStream, match: RegExp): Promise<string> {
  return new Promise((resolve) => {
    let buf = "";
    const onData = (d: Buffer) => {
      buf += d.toString();
      const line = buf.split("\n").find((l) => match.test(l));
      if (line) {
        stream.off("data", onData);
        resolve(line);
      }
    };
    stream.on("data", onData);
  });
}

/** CPU time (user + system) of `pid`, in clock ticks (100 a second on Linux). */
function cpuTicks(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return Number(fields[11]) + Number(fields[12]);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test("a dead log reader: no busy loop, SIGTERM still ends the process, lines are dropped and counted", { timeout: 20_000 }, async () => {
  const proc = start();
  try {
    await firstLine(proc.stdout!, /ready/);
    // The reader goes away: every write to either pipe now fails with EPIPE.
    proc.stdout!.destroy();
    proc.stderr!.destroy();
    await sleep(500);
    const before = cpuTicks(proc.pid!);
    await sleep(1000);
    const used = cpuTicks(proc.pid!) - before;
    // Unguarded, this was ~100 ticks (a whole core); guarded, the loop's own timers cost a few.
    assert.ok(used < 40, `the logger used ${used} of 100 CPU ticks in one second after its reader died`);
    const stats = new Promise<{ attempts: number; dropped: number; broken: Record<string, string> }>((r) =>
      proc.once("message", r as never),
    );
    const exited = new Promise<number | null>((r) => proc.once("exit", (code) => r(code)));
    const sent = Date.now();
    proc.kill("SIGTERM");
    const code = await Promise.race([exited, sleep(3000).then(() => "timeout" as const)]);
    assert.equal(code, 0, `SIGTERM did not end the process within 3 s (${code})`);
    assert.ok(Date.now() - sent < 3000);
    const s = await stats;
    assert.deepEqual(s.broken, { stdout: "EPIPE", stderr: "EPIPE" });
    // Writes were tried only until each stream was found broken; everything after was dropped without a syscall.
    assert.ok(s.attempts < 100, `${s.attempts} writes were tried`);
    assert.ok(s.dropped > 500, `only ${s.dropped} lines were counted as dropped`);
  } finally {
    proc.kill("SIGKILL");
  }
});

test("only stdout broken: its lines go to stderr, after one line that says so", { timeout: 10_000 }, async () => {
  const proc = start();
  try {
    await firstLine(proc.stdout!, /ready/);
    const notice = firstLine(proc.stderr!, /stdout is broken \(EPIPE\)/);
    proc.stdout!.destroy();
    assert.match(await notice, /WARN\s+stdout is broken \(EPIPE\): its log lines go to stderr from now on/);
    assert.match(await firstLine(proc.stderr!, /INFO\s+tick/), /n=\d+/);
  } finally {
    proc.kill("SIGKILL");
  }
});
