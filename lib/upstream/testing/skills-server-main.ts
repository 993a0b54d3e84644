/**
 * Tests only: the skills fixture (skills-server.ts) as its own process, for end-to-end tests that run the app in
 * another process. It serves both eras at `/mcp` on 127.0.0.1 (a free port unless `--port` names one), with one
 * read-only tool beside the skills so that the server's docs page has a tool list to show, and prints one line:
 *
 *   skills-server listening on http://127.0.0.1:PORT/mcp (log: http://127.0.0.1:PORT/_log)
 *
 * `GET /_log` answers the URIs of every resources/read the server answered, in order (the fixture's `skillReads`):
 * what an end-to-end test checks to tell that listing read no file, and which files a refusal kept unread.
 *
 * Run: `node --import tsx lib/upstream/testing/skills-server-main.ts [--port N] [--tamper none|digest|size|frontmatter]`.
 * It stops on SIGTERM or SIGINT.
 */
import { parseArgs } from "node:util";
import { createMcpHandler } from "@modelcontextprotocol/server";
import { serveOnLoopback } from "./loopback-http.ts";
import { skillReads, skillsServerFactory, type SkillTamper } from "./skills-server.ts";

const TAMPERS: readonly SkillTamper[] = ["none", "digest", "size", "frontmatter"];

const { values } = parseArgs({ options: { port: { type: "string" }, tamper: { type: "string" } } });
const tamper = (values.tamper ?? "none") as SkillTamper;
if (!TAMPERS.includes(tamper)) throw new Error(`--tamper wants one of ${TAMPERS.join(", ")}, not ${values.tamper}`);
const port = values.port === undefined ? 0 : Number(values.port);
if (!Number.isInteger(port) || port < 0) throw new Error(`--port wants a whole number, not ${values.port}`);

const skills = skillsServerFactory({ tamper });
const handler = createMcpHandler(() => {
  const server = skills();
  server.registerTool(
    "skill_reads",
    { description: "How many skill files this server has served so far.", annotations: { readOnlyHint: true } },
    async () => ({ content: [{ type: "text" as const, text: String(skillReads.length) }] }),
  );
  return server;
});

const served = await serveOnLoopback(
  {
    async fetch(req) {
      const { pathname } = new URL(req.url);
      if (pathname === "/_log") return Response.json(skillReads);
      if (pathname === "/mcp") return handler.fetch(req);
      return new Response("not found", { status: 404 });
    },
  },
  port,
);
process.stdout.write(`skills-server listening on ${served.origin}/mcp (log: ${served.origin}/_log)\n`);

const stop = () => void Promise.all([handler.close(), served.close()]).then(() => process.exit(0));
process.once("SIGTERM", stop);
process.once("SIGINT", stop);
