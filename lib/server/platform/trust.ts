import "server-only";
import type { Config } from "./config.ts";

/** Whether a server's annotations are trusted: builtin servers, and those listed in TOOLSCOPE_TRUSTED_SERVERS. */
export function isTrustedServer(url: string, cfg: Pick<Config, "trustedServers">): boolean {
  return url.startsWith("builtin:") || cfg.trustedServers.includes(url);
}
