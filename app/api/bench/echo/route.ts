import { benchEcho } from "@/lib/server/api/bench-echo";
import { guardedRoute } from "@/lib/server/api/guarded-route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** `npm run bench`'s floor: a bare route that parses and echoes a JSON body. Not found unless TOOLSCOPE_BENCH=1. */
export const POST = guardedRoute(function POST(req: Request) {
  return benchEcho(req);
});
