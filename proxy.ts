import type { NextRequest } from "next/server";
import { guardRequest, transportSecurity } from "@/lib/server/limits/request-guard";

/**
 * Every page passes the request guard first (Host, fetch metadata, limits, CSP). Every answer, a refusal included,
 * carries Strict-Transport-Security when the instance is hosted on https: browsers take it from any response of the
 * host. API routes are guarded by their own handlers (lib/server/api/guarded-route.ts), not here: this hook made
 * Next.js copy every request into a web Request and tee its body, which cost an API call more CPU than the route
 * itself (issue 28).
 */
export async function proxy(req: NextRequest) {
  const res = await guardRequest(req);
  const hsts = transportSecurity();
  if (hsts) res.headers.set("strict-transport-security", hsts);
  return res;
}

export const config = {
  // Static build output and the app icon carry no user input and reach nothing upstream; API routes guard themselves.
  matcher: ["/((?!_next/static|_next/image|favicon.ico|icon.svg|api/).*)"],
};
