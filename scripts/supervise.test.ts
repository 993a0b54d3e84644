import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";

// Real processes in the shape of `npm start`: a shell that waits for the supervisor (as npm's `sh -c` does), the
// supervisor (superviseChild, as scripts/start.mjs runs it) and a stand-in for scripts/server.mjs that drains on
// SIGTERM and watches its supervisor (onSupervisorGone) as the server does.
const dir = mkdtempSync(join(tmpdir(), "toolscope-supervise-"));
const started = new Set<ChildProcess>();
const pids = new Set<number>();
after(() => {
  for (const proc of started) proc.kill("SIGKILL");
  for (const pid of pids) if (alive(pid)) process.kill(pid, "SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});
const moduleUrl = JSON.stringify(new URL("./supervise.mjs", import.meta.url).href);
const server = join(dir, "server.mjs");
writeFileSync(
  server,
  `import { onSupervisorGone } from ${moduleUrl};
console.log("server " + process.pid);
const stop = (why) => { console.log("server stopping: " + why); setTimeout(() => process.exit(0), 100); };
if (process.env.IGNORE_SIGTERM) process.on("SIGTERM", () => console.log("server ignores SIGTERM"));
else process.on("SIGTERM", () => stop("SIGTERM"));
onSupervisorGone(() => stop("supervisor gone"));
setInterval(() => {}, 1000);
`,
);
const supervisor = join(dir, "start.mjs");
writeFileSync(
  supervisor,
  `import { superviseChild } from ${moduleUrl};
console.log("supervisor " + process.pid);
superviseChild(${JSON.stringify(server)}, { pollMs: 100, killAfterMs: 1000 });
`,
);

/** Whether `pid` is running (a zombie waiting for init to reap it is not). */
function alive(pid: number): boolean {
  const stat = `/proc/${pid}/stat`;
  if (!existsSync(stat)) return false;
  try {
    return readFileSync(stat, "utf8").split(") ")[1]?.[0] !== "Z";
  } catch {
    return false;
  }
}

async function gone(pid: number, withinMs: number): Promise<boolean> {
  const until = Date.now() + withinMs;
  while (Date.now() < until) {
    if (!alive(pid)) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return !alive(pid);
}

/** Start `command`, and collect its output lines; resolves once the supervisor and the server have said their pids. */
async function launch(command: string, args: string[], env: Record<string, string> = {}) {
  const proc = spawn(command, args, { stdio: ["ignore", "pipe", "inherit"], env: { ...process.env, ...env } });
  started.add(proc);
  const lines: string[] = [];
  let buf = "";
  proc.stdout!.on("data", (d: Buffer) => {
    buf += d.toString();
    const parts = buf.split("\n");
    buf = parts.pop()!;
    lines.push(...parts);
  });
  const pid = (name: string) => Number(lines.find((l) => l.startsWith(`${name} `))?.split(" ")[1]);
  const until = Date.now() + 10_000;
  while (!(pid("supervisor") && pid("server")) && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
  const found = { proc, lines, supervisor: pid("supervisor"), server: pid("server") };
  assert.ok(found.supervisor && found.server, `no pids in ${JSON.stringify(lines)}`);
  pids.add(found.supervisor).add(found.server);
  return found;
}

test("SIGTERM to the shell above the supervisor (npm's sh -c) ends the supervisor and drains the server", { timeout: 20_000 }, async () => {
  // "; true": the shell waits for node instead of exec'ing it, as npm's shell does.
  const t = await launch("sh", ["-c", `"${process.execPath}" "${supervisor}"; true`]);
  t.proc.kill("SIGTERM");
  assert.ok(await gone(t.server, 3_000), "the server kept running after its supervisor's parent went away");
  assert.ok(await gone(t.supervisor, 1_000), "the supervisor kept running after its parent went away");
  assert.ok(t.lines.includes("server stopping: SIGTERM"), `the server was not told to drain: ${JSON.stringify(t.lines)}`);
});

test("a supervisor killed outright (SIGKILL) takes its server with it", { timeout: 20_000 }, async () => {
  const t = await launch(process.execPath, [supervisor]);
  process.kill(t.supervisor, "SIGKILL");
  assert.ok(await gone(t.server, 3_000), "the server kept running after its supervisor was killed");
  assert.ok(t.lines.includes("server stopping: supervisor gone"));
});

test("SIGTERM to the supervisor is passed on; a server that ignores it is killed after killAfterMs", { timeout: 20_000 }, async () => {
  const drains = await launch(process.execPath, [supervisor]);
  const status = new Promise((r) => drains.proc.once("exit", (code) => r(code)));
  drains.proc.kill("SIGTERM");
  assert.equal(await status, 0);
  assert.ok(drains.lines.includes("server stopping: SIGTERM"));

  const stuck = await launch(process.execPath, [supervisor], { IGNORE_SIGTERM: "1" });
  const killed = new Promise((r) => stuck.proc.once("exit", (code) => r(code)));
  stuck.proc.kill("SIGTERM");
  // 128 + SIGKILL: a supervisor above restarts it, as after any kill.
  assert.equal(await killed, 137);
  assert.ok(!alive(stuck.server));
});
