// Issue 25, finding 1, as a script that prints figures: a hosted Toolscope on a small heap (the production build,
// scripts/server.mjs) against a server answering 50 pages of ~9 MB, four /api/tools and two docs pages at once,
// /api/health probed throughout. Loopback only; ends by itself.
//   node --import tsx scripts/hostile/list-walk.ts [--heap-mb 512] [--pages 50] [--tools 100] [--desc 90000] [--node <binary>]
import { startAmplifyingServer } from "../../playwright/fixtures/amplifying-server.ts";
import { startApp } from "../../playwright/fixtures/app-instance.ts";
import { describeFigures, ISSUE_SHAPE, runListWalkAttack } from "../../playwright/fixtures/list-walk-attack.ts";
import { flag } from "../bench/flags.ts";

const flagNumber = (name: string, fallback: number) => Number(flag(name) ?? fallback);

const heapMb = flagNumber("--heap-mb", 512);
const shape = {
  ...ISSUE_SHAPE,
  pages: flagNumber("--pages", ISSUE_SHAPE.pages),
  tools: flagNumber("--tools", ISSUE_SHAPE.tools),
  desc: flagNumber("--desc", ISSUE_SHAPE.desc),
};

const server = await startAmplifyingServer();
const port = new URL(server.base).port;
const app = await startApp(
  {
    TOOLSCOPE_MODE: "hosted",
    TOOLSCOPE_EGRESS_ALLOW: `127.0.0.1:${port}`,
    NODE_OPTIONS: `--max-old-space-size=${heapMb}`,
  },
  { publicUrlIsSelf: true, node: flag("--node") },
);
try {
  console.log(`hosted instance on a ${heapMb} MB heap; ${shape.apiCalls} /api/tools + ${shape.docsLoads} docs pages at once,`);
  console.log(`server: ${shape.pages} pages of ${shape.tools} tools, ${shape.desc}-character descriptions`);
  const figures = await runListWalkAttack(app.url, server, shape, app.pid);
  for (const line of describeFigures(figures)) console.log(`  ${line}`);
} finally {
  await app.stop();
  await server.close();
}
