import { redactServerUrl } from "@/lib/mcp/secrets";
import { createSafeFetch } from "./egress.ts";
import { ProxyError } from "../errors/proxy-error.ts";
import { assertStdioAllowed } from "../transports/stdio-config.ts";
import type { UpstreamSettings } from "../settings.ts";

/** Where an upstream request goes and how: a public URL through the guarded egress, or a builtin server in-process. */
export interface Target {
  url: URL;
  fetch: typeof fetch;
  /** The address to show people. */
  displayUrl: string;
}

/**
 * A server that runs in this process, addressed as `builtin:<id>` and reached without the network (no hop, no SSRF
 * exception): the program using the core names them (the web service: its demo, lib/server/platform/builtin-targets.ts).
 */
export interface BuiltinTarget {
  /** Where the server is also served over HTTP, on `origin`: the URL the exchange shows. */
  path: string;
  handler: () => Promise<{ fetch(req: Request): Promise<Response> }>;
}

/** The settings a target depends on. */
export type TargetConfig = Pick<
  UpstreamSettings,
  "mode" | "allowPrivateNetwork" | "egressAllow" | "requestTimeoutMs" | "maxConnectionsPerOrigin"
>;

/**
 * An in-process answer whose body ends when the caller aborts, as a closed connection would end it over the network:
 * nothing else tells the server that its stream is no longer read (a legacy session would keep its GET stream "held"
 * and refuse the next one with 409, losing what the session announces, such as list_changed).
 */
function closable(res: Response, signal: AbortSignal | null | undefined): Response {
  if (!signal || !res.body) return res;
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
  res.body.pipeTo(writable, { signal }).catch(() => undefined);
  return new Response(readable, { status: res.status, statusText: res.statusText, headers: res.headers });
}

/** Resolve a descriptor URL to a target. `origin` is our own public origin, used only for display. */
export async function resolveTarget(
  url: string,
  origin: string,
  c: TargetConfig,
  builtins: Readonly<Record<string, BuiltinTarget>> = {},
): Promise<Target> {
  // stdio servers are processes, not URLs: the proxy routes them to ./upstream-stdio.ts before resolving targets.
  if (url.startsWith("stdio:")) {
    assertStdioAllowed(c);
    throw new ProxyError(
      "bad-request",
      `${url} is a local stdio server: it has no HTTP endpoint (this view needs one).`,
      "Use the playground for stdio servers.",
    );
  }
  if (url.startsWith("builtin:")) {
    const id = url.slice("builtin:".length);
    const entry = Object.hasOwn(builtins, id) ? builtins[id] : undefined;
    if (!entry) throw new Error(`Unknown builtin server ${url}`);
    const handler = await entry.handler();
    // The URL is what the exchange shows; the request itself never leaves the process.
    const publicUrl = new URL(entry.path, origin);
    return {
      url: publicUrl,
      displayUrl: publicUrl.toString(),
      fetch: (async (input: RequestInfo | URL, init?: RequestInit) =>
        closable(await handler.fetch(new Request(input, init)), init?.signal)) as typeof fetch,
    };
  }
  // Only a connect shows it, so it is worked out when read rather than on every call.
  let display: string | undefined;
  return {
    url: new URL(url),
    get displayUrl() {
      return (display ??= redactServerUrl(url));
    },
    fetch: guardedFetch(c),
  };
}

/** The egress-guarded fetch for anything a user names (MCP servers, their authorization servers): one set of rules. */
export function guardedFetch(c: TargetConfig): typeof fetch {
  return createSafeFetch({
    allowPrivate: c.allowPrivateNetwork,
    allow: c.egressAllow,
    connectTimeoutMs: c.requestTimeoutMs,
    maxConnectionsPerOrigin: c.maxConnectionsPerOrigin,
  });
}
