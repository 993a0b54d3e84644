import { StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import type { ConnectionDescriptor, RootEntry, UserHeaders } from "@/lib/mcp/contract";
import { onStop } from "../../runtime/lifecycle.ts";
import { log } from "../../log/log.ts";
import { createRecorder } from "../exchange/recording-fetch.ts";
import { unattendedAsker } from "../exchange/server-request-asker.ts";
import { openSessionStream } from "./session-stream.ts";
import type { Target } from "../egress/targets.ts";

/** The welcome settings (TOOLSCOPE_SESSION_WELCOME_MS, TOOLSCOPE_SESSION_WELCOME_MAX in docs/configuration.md). */
export interface WelcomeLimits {
  /** How long the session's GET stream is held after connecting (0: never). */
  welcomeMs: number;
  /** Welcomes held at once in this process; a connect beyond it holds none. */
  maxWelcomes: number;
  /** Bytes read from the stream at most (the response limit). */
  maxBodyBytes: number;
}

/** Requests answered on one welcome at most: a server that keeps asking is not served forever. */
const MAX_ANSWERS = 8;

/** Held welcomes by session id. */
const held = new Map<string, AbortController>();
let stopHooked = false;

/** Welcomes held now (for tests and the soak). */
export function welcomesHeld(): number {
  return held.size;
}

/**
 * After an interactive connect to a legacy Streamable HTTP session, hold the session's GET stream for a short while
 * and answer what the server asks there. Servers ask right after `notifications/initialized`, on that stream and only
 * there (server-everything asks `roots/list` 350 ms later): with nobody reading it the request waits out the
 * server's own timeout and it logs "-32001 Request timed out". `roots/list` gets the roots this browser set (sent with
 * the connect); with none set, the between-calls error that says roots are answered during a call (a server may keep
 * an empty list for good, and the person would never be asked); anything else the answer a client with nobody at the
 * keyboard gives (unattendedAsker).
 *
 * It outlives the connect request on purpose (a wait inside it would slow every connect by the window), so it is
 * bounded on its own: by time, by bytes, by answers and by a count per process; the process's stop ends it.
 * Returns at once; the stream is read in the background.
 */
export function welcomeSession(
  opts: {
    target: Target;
    descriptor: Pick<ConnectionDescriptor, "protocolVersion" | "sessionId" | "url">;
    userHeaders: UserHeaders;
    roots: readonly RootEntry[];
  },
  limits: WelcomeLimits,
): void {
  const sessionId = opts.descriptor.sessionId;
  if (!sessionId || limits.welcomeMs <= 0 || held.size >= limits.maxWelcomes || held.has(sessionId)) return;
  if (!stopHooked) {
    stopHooked = true;
    onStop(async () => endWelcomes());
  }
  const stop = new AbortController();
  held.set(sessionId, stop);
  const timer = setTimeout(() => stop.abort(), limits.welcomeMs);
  timer.unref?.();
  stop.signal.addEventListener("abort", () => {
    clearTimeout(timer);
    if (held.get(sessionId) === stop) held.delete(sessionId);
  });
  const recorder = createRecorder(opts.target.fetch, {
    secretHeaderNames: Object.keys(opts.userHeaders),
    maxBodyBytes: limits.maxBodyBytes,
  });
  const reply = new StreamableHTTPClientTransport(opts.target.url, {
    fetch: recorder.fetch,
    requestInit: { headers: opts.userHeaders, signal: stop.signal },
    sessionId: opts.descriptor.sessionId,
    protocolVersion: opts.descriptor.protocolVersion,
  });
  const asker = unattendedAsker("no call is running on this session and this browser has no roots set", { betweenCalls: true });
  let answers = 0;
  const answer = async (m: Record<string, unknown>) => {
    const method = m.method;
    if (typeof method !== "string" || m.id === undefined || m.id === null) return; // notifications: nothing to answer
    if (++answers > MAX_ANSWERS) return stop.abort();
    const given =
      method === "roots/list" && opts.roots.length > 0
        ? { result: { roots: opts.roots.map((r) => (r.name ? { uri: r.uri, name: r.name } : { uri: r.uri })) } }
        : (await asker.ask(m, stop.signal)).answer;
    await reply.send({ jsonrpc: "2.0", id: m.id, ...given } as never).catch((err: unknown) => {
      log.debug("session welcome: answer not delivered", { url: opts.descriptor.url, method, error: String(err) });
    });
  };
  void openSessionStream(opts, recorder.fetch, stop.signal, (m) => void answer(m)).then((reading) => {
    if (!reading) stop.abort();
  });
}

/** Ends the session's welcome: a call of this process is about to hold the session's GET stream itself. */
export function endWelcome(sessionId: string | undefined): void {
  if (sessionId) held.get(sessionId)?.abort();
}

/** Ends every welcome (the process is stopping). */
export function endWelcomes(): void {
  for (const stop of [...held.values()]) stop.abort();
}
