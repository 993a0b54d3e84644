import "server-only";
import { headers } from "next/headers";
import { takeSlot } from "./api-route.ts";
import { config } from "./config.ts";
import { ProxyError } from "./proxy-error.ts";
import { docsSnapshot, type DocsSnapshot } from "./docs-snapshot.ts";
import { requestOrigin } from "./request-origin.ts";
import { parseServerUrl } from "@/lib/mcp/contract-guards";

export type DocsLoad = { ok: true; url: string; snap: DocsSnapshot } | { ok: false; url: string; error: { kind: ProxyError["kind"]; message: string; hint?: string } };

/** Load the docs snapshot for the `server` query value; every failure becomes a displayable error. */
export async function loadDocs(server: string | string[] | undefined): Promise<DocsLoad> {
  const raw = typeof server === "string" ? server : "builtin:demo";
  let url: string;
  try {
    url = parseServerUrl(raw);
  } catch (err) {
    return { ok: false, url: raw, error: { kind: "bad-request", message: (err as Error).message } };
  }
  let release = () => {};
  try {
    // A live docs page is an upstream request like an API call: the same concurrency caps hold.
    if (!url.startsWith("builtin:")) release = takeSlot({ headers: await headers() }, config(), "request");
    return { ok: true, url, snap: await docsSnapshot(url, await requestOrigin()) };
  } catch (err) {
    const e = err instanceof ProxyError ? err : new ProxyError("internal", (err as Error).message);
    return { ok: false, url, error: { kind: e.kind, message: e.message, hint: e.hint } };
  } finally {
    release();
  }
}
