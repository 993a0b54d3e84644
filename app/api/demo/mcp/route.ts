import type { DemoServerHandler } from "@/lib/demo/server";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// Created on first request, never at import: Next loads route modules at build time.
let handler: Promise<DemoServerHandler> | undefined;

function demo(): Promise<DemoServerHandler> {
  const pageSize = Number.parseInt(process.env.TOOLSCOPE_DEMO_PAGE_SIZE ?? "", 10) || 5;
  return (handler ??= import("@/lib/demo/server").then((m) => m.createDemoServerHandler({ pageSize })));
}

async function serve(req: Request): Promise<Response> {
  return (await demo()).fetch(req);
}

export const GET = serve;
export const POST = serve;
export const DELETE = serve;
