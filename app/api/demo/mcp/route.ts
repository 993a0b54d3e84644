import { demoHandler } from "@/lib/server/platform/demo-handler";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** The built-in demo MCP server over Streamable HTTP, for any MCP client (modern and legacy eras). */
async function serve(req: Request): Promise<Response> {
  return (await demoHandler()).fetch(req);
}

export const GET = serve;
export const POST = serve;
export const DELETE = serve;
