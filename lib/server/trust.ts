import "server-only";
import { config } from "./config.ts";

/** Whether a server's annotations are trusted: builtin servers, and those listed in TOOLSCOPE_TRUSTED_SERVERS. */
export function isTrustedServer(url: string): boolean {
  return url.startsWith("builtin:") || config().trustedServers.includes(url);
}
