import "server-only";
import { guardApiRequest, transportSecurity } from "../limits/request-guard.ts";

type Handler = (req: Request) => Response | Promise<Response>;

/**
 * An API route's handler behind the API guard (Host, same-origin JSON calls, rate limits: guardApiRequest), with the
 * headers every API answer carries (nosniff; Strict-Transport-Security on a hosted https instance). Every route
 * under app/api but the health probe is one of these (route-classes.test.ts checks): proxy.ts does not run for API
 * routes.
 */
export function guardedRoute(handler: Handler): (req: Request) => Promise<Response> {
  return async (req) => withApiHeaders((await guardApiRequest(req)) ?? (await handler(req)));
}

function withApiHeaders(res: Response): Response {
  const hsts = transportSecurity();
  const set = (headers: Headers) => {
    headers.set("x-content-type-options", "nosniff");
    if (hsts) headers.set("strict-transport-security", hsts);
  };
  try {
    set(res.headers);
    return res;
  } catch {
    // An answer whose headers are read-only (one passed on from a fetch): the same answer with a copy of them.
    const headers = new Headers(res.headers);
    set(headers);
    return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
  }
}
