import type { Target } from "../egress/targets.ts";
import { connectServer } from "./connect.ts";
import { disconnectServer } from "./disconnect.ts";
import { withSseSession } from "./sse-session.ts";
import { withOverrides } from "./upstream-http.ts";
import type { Upstream, UpstreamConfig } from "../upstream.ts";

/*
 * The session itself (GET the stream, initialize, the messages, close) is ./sse-session.ts: connect.ts opens one too,
 * and this factory calls connect.ts, so both in one module would be an import cycle.
 */

/**
 * A server on the deprecated HTTP+SSE transport. Every call runs on a short session of its own (GET the stream,
 * initialize, the call's messages, close): the proxy keeps nothing between calls, and any instance may serve the next.
 */
export function sseUpstream(target: Target, cfg: UpstreamConfig): Upstream {
  return {
    transport: "http+sse",
    cachesLists: true,
    listens: false,
    hasHeaders: true,
    connect: (input) =>
      connectServer({
        target,
        url: input.url,
        era: "legacy-sse",
        userHeaders: input.userHeaders,
        interactive: input.interactive,
        apps: input.apps,
        timeoutMs: cfg.requestTimeoutMs,
        maxBodyBytes: cfg.maxResponseBytes,
      }),
    withSession: (descriptor, io, run) =>
      withSseSession(
        {
          target: withOverrides(target, io.headerOverrides),
          userHeaders: io.userHeaders,
          timeoutMs: io.timeoutMs,
          maxBodyBytes: io.maxBodyBytes,
          signal: io.signal,
          onSseEvent: io.onSseEvent,
          interactive: descriptor.interactive === true,
          apps: descriptor.apps !== false,
        },
        (session) => run(() => session.channel),
      ),
    disconnect: (descriptor, userHeaders) =>
      disconnectServer({ target, descriptor, userHeaders, timeoutMs: cfg.requestTimeoutMs, maxBodyBytes: cfg.maxResponseBytes }),
    extras: () => ({}),
  };
}
