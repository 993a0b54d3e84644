/**
 * Tests only: runs a fixture server's main file (TypeScript, through tsx) as a child process and resolves with the
 * URL it prints once it listens, for tests whose app runs in another process (Playwright).
 */
import { spawn } from "node:child_process";

export interface SpawnedFixture {
  url: string;
  stop(): void;
}

/** `listening` captures the URL (its first group) from the child's stdout; 20 s to get there. */
export function spawnFixture(main: string, args: string[], listening: RegExp): Promise<SpawnedFixture> {
  const child = spawn(process.execPath, ["--import", "tsx", main, ...args], { stdio: ["ignore", "pipe", "inherit"] });
  const name = main.split(/[\\/]/).at(-1);
  return new Promise((resolve, reject) => {
    let out = "";
    const fail = (why: string) => {
      clearTimeout(timer);
      child.kill("SIGTERM");
      reject(new Error(`${name} ${why}${out ? `; it said: ${out}` : ""}`));
    };
    const timer = setTimeout(() => fail("did not start within 20 s"), 20_000);
    child.on("exit", (code) => fail(`exited with ${code}`));
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const m = listening.exec(out);
      if (!m) return;
      clearTimeout(timer);
      child.removeAllListeners("exit");
      resolve({ url: m[1], stop: () => void child.kill("SIGTERM") });
    });
  });
}
