import "server-only";

/**
 * The least a JSON route in this Next.js server can do — read the body, parse it, answer it as JSON — so the bench
 * can tell the proxy's own cost from the platform's. Mounted only when the process was started with
 * TOOLSCOPE_BENCH=1 (read per request, so no build flag is needed); otherwise the route does not exist.
 */
export async function benchEcho(req: Request): Promise<Response> {
  if (process.env.TOOLSCOPE_BENCH !== "1") return new Response("Not Found", { status: 404 });
  const body = (await req.json()) as unknown;
  return Response.json({ echoed: body }, { headers: { "cache-control": "no-store" } });
}
