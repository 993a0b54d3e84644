import type { NextRequest } from "next/server";
import { guardRequest } from "@/lib/server/request-guard";

/** Every request passes the request guard first (Host, same-origin API calls, fetch metadata, limits, CSP). */
export function proxy(req: NextRequest) {
  return guardRequest(req);
}

export const config = {
  // Static build output and the app icon carry no user input and reach nothing upstream.
  matcher: ["/((?!_next/static|_next/image|favicon.ico|icon.svg).*)"],
};
