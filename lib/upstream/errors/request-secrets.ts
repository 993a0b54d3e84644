import { AsyncLocalStorage } from "node:async_hooks";
import { mergeSecrets, NO_SECRETS, type SecretValues } from "@/lib/mcp/mask-text";
import { processSingleton } from "../../runtime/process-singleton.ts";

/*
 * The user's secrets of the request being served (its header values, its OAuth tokens), ambient like the upstream
 * budget: entered once per request by handleApi (and by the docs loader for a signed-in Share), read where text
 * built from a server's answer becomes a message or a log line. Every ProxyError masks its message and hint with
 * them when it is made (./proxy-error.ts), so no failure path has to pass them on, and a new one cannot forget to.
 */

function storage(): AsyncLocalStorage<SecretValues> {
  return processSingleton("request-secrets", () => new AsyncLocalStorage<SecretValues>());
}

/** Run `fn` with `secrets` added to the current request's (a nested scope keeps the outer values). */
export function withRequestSecrets<T>(secrets: SecretValues, fn: () => T): T {
  const outer = storage().getStore() ?? NO_SECRETS;
  return storage().run(mergeSecrets(outer, secrets), fn);
}

/** The current request's secrets (none outside a request). */
export function requestSecrets(): SecretValues {
  return storage().getStore() ?? NO_SECRETS;
}
