/**
 * Tests only: starts the skills fixture (skills-server-main.ts) as a child process, for tests that need it apart from
 * their own process (Playwright runs the app in another one). Resolves once the child prints where it listens; the
 * files it served are read over HTTP (`GET /_log`).
 */
import { spawnFixture } from "./spawn-fixture.ts";
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

export async function spawnSkillsServer(tamper: SkillTamper = "none"): Promise<SkillsServerProcess> {
  const { url, stop } = await spawnFixture(MAIN, ["--tamper", tamper], LISTENING);
  return { url, stop, reads: async () => (await (await fetch(new URL("/_log", url))).json()) as string[] };
}
