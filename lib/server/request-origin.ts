import "server-only";
import { headers } from "next/headers";

/** Our own origin as the browser sees it, for display URLs in server-rendered pages. */
export async function requestOrigin(): Promise<string> {
  const h = await headers();
  const host = h.get("x-forwarded-host") ?? h.get("host") ?? "localhost:3000";
  const proto = h.get("x-forwarded-proto") ?? "http";
  // Host is client-controlled: only ever used as display text, never to route a request.
  return `${proto === "https" ? "https" : "http"}://${host.replace(/[^\w.:[\]-]/g, "")}`;
}
