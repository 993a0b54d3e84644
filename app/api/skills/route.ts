import { parseSkillsRequest } from "@/lib/mcp/skills-guards";
import { handleApi } from "@/lib/server/api/api-route";
import { skills } from "@/lib/server/api/skills-service";
import { guardedRoute } from "@/lib/server/api/guarded-route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** A server's skills (SEP-2640): list, get, a file read and verified against the skill's entry, a skill directory. */
export const POST = guardedRoute(function POST(req: Request) {
  return handleApi(req, parseSkillsRequest, skills, (i) => i.connection.url);
});
