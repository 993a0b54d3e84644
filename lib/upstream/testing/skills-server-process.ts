/**
 * Tests only: starts the skills fixture (skills-server-main.ts) as a child process, for tests that need it apart from
 * their own process (Playwright runs the app in another one). Resolves once the child prints where it listens; the
 * files it served are read over HTTP (`GET /_log`).
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { SkillTamper } from "./skills-server.ts";

const MAIN = fileURLToPath(new URL("./skills-server-main.ts", import.meta.url));
const LISTENING = /^skills-server listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)/m;

export interface SkillsServerProcess {
  /** The MCP endpoint (both eras). */
  url: string;
  /** The URIs of every resources/read it answered so far, in order. */
  reads(): Promise<string[]>;
  stop(): void;
}

export function spawnSkillsServer(tamper: SkillTamper = "none"): Promise<SkillsServerProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", MAIN, "--tamper", tamper], { stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    let out = "";
    const fail = (why: string) => {
      clearTimeout(timer);
      child.kill("SIGTERM");
      reject(new Error(`skills-server-main.ts ${why}${out ? `; it said: ${out}` : ""}`));
    };
    const timer = setTimeout(() => fail("did not start within 20 s"), 20_000);
    child.on("exit", (code) => fail(`exited with ${code}`));
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const m = LISTENING.exec(out);
      if (!m) return;
      clearTimeout(timer);
      child.removeAllListeners("exit");
      const url = m[1];
      resolve({
        url,
        reads: async () => (await (await fetch(new URL("/_log", url))).json()) as string[],
        stop: () => void child.kill("SIGTERM"),
      });
    });
  });
}
