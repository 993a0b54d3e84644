/**
 * Starts Toolscope's production server (`scripts/server.mjs`, the build `npm run build` made) for the bench, with the
 * bench echo route mounted (TOOLSCOPE_BENCH=1), on a free loopback port; resolves once /api/health answers.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";

export interface BenchApp {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

export async function startBenchApp(env: Record<string, string> = {}, nodeArgs: string[] = []): Promise<BenchApp> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [...nodeArgs, "scripts/server.mjs"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      NEXT_TELEMETRY_DISABLED: "1",
      HOST: "127.0.0.1",
      PORT: String(port),
      TOOLSCOPE_BENCH: "1",
      // The request log still runs (it is part of every request's cost); warnings would be the bench's to read.
      ...env,
    },
    stdio: ["ignore", "ignore", "pipe"],
  });
  return served(child, `http://127.0.0.1:${port}`, "Toolscope");
}

/**
 * A server process the bench started, once its `/api/health` answers (within 30 s; its stderr's tail in the error
 * otherwise), with the way to stop it. Shared by Toolscope and the bare Next.js app (./bare-next.ts).
 */
export async function served(child: ChildProcess, url: string, name: string): Promise<BenchApp> {
  let stderr = "";
  child.stderr!.on("data", (b: Buffer) => (stderr = (stderr + b.toString()).slice(-4000)));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}:\n${stderr}`);
    if (Date.now() > deadline) throw new Error(`${name} did not answer /api/health within 30 s:\n${stderr}`);
    const ok = await fetch(`${url}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    await new Promise((r) => setTimeout(r, 150));
  }
  return {
    url,
    pid: child.pid ?? -1,
    stop: async () => {
      if (child.exitCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}

/** What a script sends to Toolscope's API: JSON, and a same-origin claim (its request guard refuses anything else). */
export const APP_HEADERS: Record<string, string> = { "content-type": "application/json", "sec-fetch-site": "same-origin" };
