import type { NextRequest } from "next/server";
import { config as serverConfig } from "@/lib/server/platform/config";
import { guardRequest } from "@/lib/server/limits/request-guard";
import { strictTransportSecurity } from "@/lib/security/csp";

/**
 * Every request passes the request guard first (Host, same-origin API calls, fetch metadata, limits, CSP). Every
 * answer, a refusal included, carries Strict-Transport-Security when the instance is hosted on https: browsers take
 * it from any response of the host.
 */
export async function proxy(req: NextRequest) {
  const res = await guardRequest(req);
  const hsts = transportSecurity();
  if (hsts) res.headers.set("strict-transport-security", hsts);
  return res;
}

/** The HSTS value of this instance's config (none while the config is invalid: the guard already refuses then). */
function transportSecurity(): string | undefined {
  try {
    const c = serverConfig();
    return strictTransportSecurity({ mode: c.mode, publicUrl: c.publicUrl, maxAgeSeconds: c.hstsMaxAgeSeconds });
  } catch {
    return undefined;
  }
}

export const config = {
  // Static build output and the app icon carry no user input and reach nothing upstream.
  matcher: ["/((?!_next/static|_next/image|favicon.ico|icon.svg).*)"],
};
