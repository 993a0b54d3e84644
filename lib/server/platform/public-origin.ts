import "server-only";
import type { Config } from "./config.ts";

/** Read-only view of request headers (a `Headers` or Next's `ReadonlyHeaders`). */
interface HeaderSource {
  get(name: string): string | null;
}

/**
 * The origin people reach us at, for snapshot URLs, Open Graph and the demo's display URL: TOOLSCOPE_PUBLIC_URL
 * when set (always in hosted mode). A local instance without it uses the request's Host, which the request guard
 * (proxy.ts) has already limited to loopback names and TOOLSCOPE_ALLOWED_HOSTS. `X-Forwarded-Host` is never read;
 * `X-Forwarded-Proto` only behind trusted proxy hops (TOOLSCOPE_TRUST_PROXY).
 */
export function publicOrigin(headers: HeaderSource, cfg: Pick<Config, "publicUrl" | "trustProxy">): string {
  if (cfg.publicUrl) return cfg.publicUrl;
  const host = headers.get("host") ?? "localhost";
  const https = cfg.trustProxy > 0 && headers.get("x-forwarded-proto")?.split(",")[0].trim() === "https";
  return `${https ? "https" : "http"}://${host}`;
}
