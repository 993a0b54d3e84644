import dns from "node:dns";
import net from "node:net";
import ipaddr from "ipaddr.js";
import { Agent, buildConnector, fetch as undiciFetch } from "undici";
import { endObservedStream, leanFetch, leanHeaders } from "./lean-fetch.ts";
import { currentUpstreamBudget } from "./upstream-budget.ts";
import { processSingleton } from "../../runtime/process-singleton.ts";

/** Raised when a target address is not allowed by the egress policy. */
export class BlockedTargetError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BlockedTargetError";
  }

  /**
   * Recognised by name, not by class: Next.js loads the request guard, route handlers and pages as separate module
   * graphs, each with its own copy of this class, while the pooled agents that raise it are shared by the process
   * (processSingleton). A page whose docs load met an agent built by the guard's graph would otherwise not see the
   * refusal and report the probe's "fetch failed" instead.
   */
  static [Symbol.hasInstance](value: unknown): boolean {
    return value instanceof Error && value.name === "BlockedTargetError";
  }
}

/**
 * How the hosted proxy treats a range: `public` may be reached, `refused` may not, and `embedded-ipv4` is judged
 * by the IPv4 address inside it.
 */
type Verdict = "public" | "refused" | "embedded-ipv4";

/** One row of an address table; the first row whose range holds the address decides. */
interface AddressRule {
  cidr: string;
  verdict: Verdict;
}

/**
 * IPv4, after the IANA IPv4 Special-Purpose Address Registry (plus multicast). Every registry entry is refused,
 * even those IANA marks globally reachable: they are anycast services (PCP, TURN, AMT, AS112) that the nearest
 * instance answers, often one run inside the hosting network, and none of them is an MCP server.
 */
const IPV4_RULES: readonly AddressRule[] = [
  { cidr: "0.0.0.0/8", verdict: "refused" }, // "this network" (0.0.0.0/32 included): Linux connects 0.0.0.0 to itself
  { cidr: "10.0.0.0/8", verdict: "refused" }, // private-use
  { cidr: "100.64.0.0/10", verdict: "refused" }, // shared address space (carrier-grade NAT)
  { cidr: "127.0.0.0/8", verdict: "refused" }, // loopback
  { cidr: "169.254.0.0/16", verdict: "refused" }, // link-local, home of cloud metadata (169.254.169.254)
  { cidr: "172.16.0.0/12", verdict: "refused" }, // private-use
  // IETF protocol assignments, all sub-entries included: 192.0.0.0/29 DS-Lite, .8 dummy, .9 PCP anycast,
  // .10 TURN anycast, .170/.171 NAT64 discovery.
  { cidr: "192.0.0.0/24", verdict: "refused" },
  { cidr: "192.0.2.0/24", verdict: "refused" }, // documentation (TEST-NET-1)
  { cidr: "192.31.196.0/24", verdict: "refused" }, // AS112-v4 anycast
  { cidr: "192.52.193.0/24", verdict: "refused" }, // AMT relay anycast
  { cidr: "192.88.99.0/24", verdict: "refused" }, // deprecated 6to4 relay anycast
  { cidr: "192.168.0.0/16", verdict: "refused" }, // private-use
  { cidr: "192.175.48.0/24", verdict: "refused" }, // AS112 direct delegation anycast
  { cidr: "198.18.0.0/15", verdict: "refused" }, // benchmarking
  { cidr: "198.51.100.0/24", verdict: "refused" }, // documentation (TEST-NET-2)
  { cidr: "203.0.113.0/24", verdict: "refused" }, // documentation (TEST-NET-3)
  { cidr: "224.0.0.0/4", verdict: "refused" }, // multicast: not a single host, and no TCP
  { cidr: "240.0.0.0/4", verdict: "refused" }, // reserved, limited broadcast 255.255.255.255/32 included
  { cidr: "0.0.0.0/0", verdict: "public" }, // everything else is ordinary unicast
];

/**
 * IPv6, after the IANA IPv6 Special-Purpose Address Registry (plus deprecated and multicast ranges). Only global
 * unicast (2000::/3) outside the registry is reached. Of the prefixes that embed an IPv4 address, only IPv4-mapped
 * is judged by that address: the kernel sends plain IPv4 to exactly it. The transition prefixes are refused
 * outright: a translator or relay decides where their packets go, from inside a network we cannot see, and a
 * public server is reachable at its own address anyway.
 */
const IPV6_RULES: readonly AddressRule[] = [
  { cidr: "::ffff:0:0/96", verdict: "embedded-ipv4" }, // IPv4-mapped: the socket API's spelling of an IPv4 address
  { cidr: "::/96", verdict: "refused" }, // deprecated IPv4-compatible; holds :: (unspecified) and ::1 (loopback) too
  { cidr: "::ffff:0:0:0/96", verdict: "refused" }, // IPv4-translated (SIIT): reached through a translator
  { cidr: "64:ff9b::/96", verdict: "refused" }, // NAT64 well-known prefix: the gateway reaches the IPv4 from inside
  { cidr: "64:ff9b:1::/48", verdict: "refused" }, // NAT64 local-use prefix
  { cidr: "100::/64", verdict: "refused" }, // discard-only
  { cidr: "100:0:0:1::/64", verdict: "refused" }, // dummy prefix
  // IETF protocol assignments, all sub-entries included: 2001::/32 Teredo (a relay reaches an obfuscated IPv4),
  // 2001:1::1-3 PCP/TURN/DNS-SD anycast, 2001:2::/48 benchmarking, 2001:3::/32 AMT, 2001:4:112::/48 AS112,
  // 2001:10::/28 ORCHID, 2001:20::/28 ORCHIDv2 and 2001:30::/28 DRIP (identifiers, not locators).
  { cidr: "2001::/23", verdict: "refused" },
  { cidr: "2001:db8::/32", verdict: "refused" }, // documentation
  { cidr: "2002::/16", verdict: "refused" }, // 6to4: a relay reaches the embedded IPv4 (deprecated by RFC 7526)
  { cidr: "2620:4f:8000::/48", verdict: "refused" }, // AS112-v6 anycast
  { cidr: "3fff::/20", verdict: "refused" }, // documentation
  { cidr: "5f00::/16", verdict: "refused" }, // segment routing (SRv6) SIDs
  { cidr: "fc00::/7", verdict: "refused" }, // unique local
  { cidr: "fe80::/10", verdict: "refused" }, // link-local
  { cidr: "fec0::/10", verdict: "refused" }, // deprecated site-local
  { cidr: "ff00::/8", verdict: "refused" }, // multicast
  { cidr: "2000::/3", verdict: "public" }, // global unicast
  { cidr: "::/0", verdict: "refused" }, // the rest is unallocated or reserved by the IETF
];

type Table = readonly { range: [ipaddr.IPv4 | ipaddr.IPv6, number]; verdict: Verdict }[];

function compile(rules: readonly AddressRule[]): Table {
  return rules.map((rule) => ({ range: ipaddr.parseCIDR(rule.cidr), verdict: rule.verdict }));
}

const IPV4_TABLE = compile(IPV4_RULES);
const IPV6_TABLE = compile(IPV6_RULES);

/** The verdict of the first row holding `addr` (both tables end with a catch-all row). */
function verdictOf(addr: ipaddr.IPv4 | ipaddr.IPv6): Verdict {
  const table = addr.kind() === "ipv4" ? IPV4_TABLE : IPV6_TABLE;
  return table.find((row) => addr.match(row.range))?.verdict ?? "refused";
}

/**
 * ipaddr.js reads every `::a.b.c.d` as IPv4-mapped (`::ffff:a.b.c.d`), which would turn the IPv4-compatible
 * `::127.0.0.1` into another prefix: the dotted tail is spelled as two hex groups first.
 */
function hexTail(ip: string): string {
  const dotted = /^(.*:)(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(ip);
  if (!dotted) return ip;
  const [a, b, c, d] = dotted.slice(2).map(Number);
  return `${dotted[1]}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
}

/**
 * Parses an address literal as the socket layer reads it, zone id dropped. Only standard spellings count: odd IPv4
 * forms (`0x7f.1`, `2130706433`, `0177.0.0.1`) are names to `net.connect`, and URL parsing or DNS turn them into
 * dotted decimal before they get here.
 */
function parseAddress(ip: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  const bare = ip.replace(/%.*$/, "");
  const family = net.isIP(bare);
  if (family === 4) return ipaddr.IPv4.parse(bare);
  if (family === 6) return ipaddr.IPv6.parse(hexTail(bare));
  return undefined;
}

/**
 * True when `ip` is a globally reachable unicast address the hosted proxy may connect to (see the address tables:
 * loopback, private, link-local, metadata, documentation, anycast services and IPv4 transition prefixes are not).
 * Anything that is not a standard IPv4 or IPv6 literal is refused.
 */
export function isPublicAddress(ip: string): boolean {
  // A zone id ties an address to one local interface: only non-global addresses need one.
  if (ip.includes("%")) return false;
  const addr = parseAddress(ip);
  if (!addr) return false;
  const verdict = verdictOf(addr);
  if (verdict === "embedded-ipv4") return verdictOf((addr as ipaddr.IPv6).toIPv4Address()) === "public";
  return verdict === "public";
}

/** An IPv4-mapped address as its IPv4 address, so allow-list CIDRs of either spelling match it. */
function unmapped(addr: ipaddr.IPv4 | ipaddr.IPv6): ipaddr.IPv4 | ipaddr.IPv6 {
  return addr.kind() === "ipv6" && (addr as ipaddr.IPv6).isIPv4MappedAddress() ? (addr as ipaddr.IPv6).toIPv4Address() : addr;
}

/** Resolves a host name to every address it has (injectable so tests can point names anywhere). */
export type Resolver = (hostname: string, family: number) => Promise<dns.LookupAddress[]>;

const systemResolver: Resolver = (hostname, family) => dns.promises.lookup(hostname, { all: true, family: family as 0 | 4 | 6 });

export interface EgressPolicy {
  /** Allow loopback/private/reserved targets (local mode). */
  allowPrivate: boolean;
  /**
   * Exceptions for on-premise deployments: CIDR ranges (`10.1.0.0/16`) and `host:port` pairs
   * (`127.0.0.1:8080`, `mcp.internal:443`) that may be reached although private.
   */
  allow: readonly string[];
}

/** Whether an address (on a port, reached by a host name) is allowed by the policy. */
export function allowedTarget(ip: string, port: number, hostname: string, policy: EgressPolicy): boolean {
  if (policy.allowPrivate || isPublicAddress(ip)) return true;
  const address = parseAddress(ip);
  const parsed = address && unmapped(address);
  return policy.allow.some((entry) => {
    if (entry.includes("/")) {
      try {
        const [range, bits] = ipaddr.parseCIDR(entry);
        return parsed !== undefined && parsed.kind() === range.kind() && parsed.match(range, bits);
      } catch {
        return false;
      }
    }
    const at = entry.lastIndexOf(":");
    const host = entry
      .slice(0, at)
      .replace(/^\[|\]$/g, "")
      .toLowerCase();
    return Number(entry.slice(at + 1)) === port && (host === hostname.toLowerCase() || host === ip);
  });
}

/**
 * The refusal of a private target. Only the policy refuses, and only in hosted mode (local mode allows private
 * targets), so the message never names the address a host name resolved to: a public instance would otherwise answer
 * DNS questions about the network it runs in ("mcp.internal resolves to 10.1.2.3") for anyone who asks. An address
 * the caller typed is theirs already and is named.
 */
function refuse(host: string): BlockedTargetError {
  const what = net.isIP(host)
    ? `${host} is a private, loopback or reserved address`
    : `${host} is not allowed: it points to a private, loopback or reserved address`;
  return new BlockedTargetError(
    `${what}. The hosted proxy only reaches public servers; run Toolscope locally to test servers on your own network.`,
  );
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void;

function guardedLookup(policy: EgressPolicy, resolve: Resolver, port: () => number) {
  return (hostname: string, options: dns.LookupOptions, callback: LookupCallback) => {
    resolve(hostname, typeof options.family === "number" ? options.family : 0).then(
      (addresses) => {
        // Every answer must pass: a record set mixing public and private addresses is a rebinding trick.
        const bad = addresses.find((a) => !allowedTarget(a.address, port(), hostname, policy));
        if (bad) return callback(refuse(hostname), []);
        if (addresses.length === 0) return callback(Object.assign(new Error(`No address for ${hostname}`), { code: "ENOTFOUND" }), []);
        if (options.all) return callback(null, addresses);
        callback(null, addresses[0].address, addresses[0].family);
      },
      (err) => callback(err, []),
    );
  };
}

function createAgent(policy: EgressPolicy, connectTimeoutMs: number, resolve: Resolver): Agent {
  return new Agent({
    // No cap in undici: its pool would queue excess requests without bound and without saying so (and an open event
    // stream holds a connection for minutes). The origin limiter below caps what waits for an answer, with a bounded,
    // reported wait; open streams are bounded by the stream caps and limits instead.
    connections: null,
    headersTimeout: connectTimeoutMs,
    // SSE streams stay open; each request is bounded by its own AbortSignal instead.
    bodyTimeout: 0,
    connect(opts, cb) {
      const host = opts.hostname.replace(/^\[|\]$/g, "");
      const port = Number(opts.port) || (opts.protocol === "https:" ? 443 : 80);
      // net.connect skips `lookup` for IP literals, so literals are checked here (redirects included).
      if (net.isIP(host) && !allowedTarget(host, port, host, policy)) return cb(refuse(host), null);
      // The connector resolves through our lookup, and connects to the very address that was checked.
      const connector = buildConnector({ lookup: guardedLookup(policy, resolve, () => port) as never, timeout: connectTimeoutMs });
      connector(opts, (err, socket) => {
        if (err || !socket) return cb(err ?? new Error("connect failed"), null);
        const remote = socket.remoteAddress;
        if (remote && !allowedTarget(remote, port, host, policy)) {
          socket.destroy();
          return cb(refuse(host), null);
        }
        cb(null, socket);
      });
    },
  });
}

/** Pooled agents of the process (routes and pages share connections). */
const agents = processSingleton("egress-agents", () => new Map<string, Agent>());

/** One pooled Agent per policy (no user state lives in its connections). */
function agentFor(policy: EgressPolicy, connectTimeoutMs: number, resolve?: Resolver): Agent {
  if (resolve) return createAgent(policy, connectTimeoutMs, resolve);
  const key = JSON.stringify([policy.allowPrivate, policy.allow, connectTimeoutMs]);
  let agent = agents.get(key);
  if (!agent) agents.set(key, (agent = createAgent(policy, connectTimeoutMs, systemResolver)));
  return agent;
}

/* ------------------------------------------------------------------------------------------------------------------
 * Per-origin connection limits. Every upstream request holds a connection until its answer is over; past
 * TOOLSCOPE_MAX_CONNECTIONS_PER_ORIGIN requests in flight to one origin, a request waits for one to finish, for a
 * bounded share of its own timeout (the wait counts against that timeout, it is not added to it), and then fails
 * saying so. An answer that turns into an event stream (a call with progress, a listen stream, an HTTP+SSE session)
 * stops counting once its headers arrive: it may stay open for minutes, and must not starve short requests to the
 * same server; streams are bounded by TOOLSCOPE_MAX_STREAMS_* and the stream idle/maximum limits instead.
 * ---------------------------------------------------------------------------------------------------------------- */

/**
 * Requests Toolscope has in flight to one origin (scheme, host, port) until their answer is over or turns into an
 * event stream (the default of TOOLSCOPE_MAX_CONNECTIONS_PER_ORIGIN; 1..1024).
 */
export const MAX_CONNECTIONS_PER_ORIGIN = 64;
/** The share of the request timeout a request may spend waiting for one of those connections. */
export const CONNECTION_WAIT_SHARE = 0.5;

/** A request waited for a connection to its origin longer than it may: nothing was sent. */
export class ConnectionWaitTimeout extends Error {
  constructor(
    message: string,
    readonly hint: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "ConnectionWaitTimeout";
  }
}

/** One request's hold on its origin: give it back when the answer is over, or move it to the streams when it streams. */
export interface OriginSlot {
  /** The answer is an event stream: stop counting against the request limit (idempotent). */
  streaming(): void;
  /** The exchange is over (idempotent). */
  release(): void;
}

interface OriginState {
  active: number;
  streams: number;
  waiting: { grant: () => void }[];
}

/** What an origin holds right now (tests, diagnostics). */
export interface OriginLoad {
  active: number;
  waiting: number;
  streams: number;
}

/** Counts requests per origin against a limit; a request over it waits (FIFO) within a bound, then fails. */
export class OriginLimiter {
  private readonly origins = new Map<string, OriginState>();

  constructor(readonly limit: number) {}

  load(origin: string): OriginLoad {
    const s = this.origins.get(origin);
    return { active: s?.active ?? 0, waiting: s?.waiting.length ?? 0, streams: s?.streams ?? 0 };
  }

  /** A slot for `origin`, at once or after waiting at most `waitMs` (or until `signal` aborts): else ConnectionWaitTimeout. */
  acquire(origin: string, waitMs: number, signal?: AbortSignal | null): Promise<OriginSlot> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    const state = this.origins.get(origin) ?? { active: 0, streams: 0, waiting: [] };
    this.origins.set(origin, state);
    if (state.active < this.limit && state.waiting.length === 0) {
      state.active++;
      return Promise.resolve(this.slot(origin, state));
    }
    const started = performance.now();
    return new Promise<OriginSlot>((resolve, reject) => {
      const waiter = {
        grant: () => {
          cleanup();
          state.active++;
          resolve(this.slot(origin, state));
        },
      };
      const fail = (cause?: unknown) => {
        cleanup();
        const at = state.waiting.indexOf(waiter);
        if (at >= 0) state.waiting.splice(at, 1);
        this.forgetIfIdle(origin, state);
        reject(this.waitTimeout(origin, state, Math.round(performance.now() - started), cause));
      };
      const timer = setTimeout(() => fail(), Math.max(0, waitMs));
      const onAbort = () => fail(signal?.reason);
      const cleanup = () => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      state.waiting.push(waiter);
    });
  }

  private slot(origin: string, state: OriginState): OriginSlot {
    let held: "request" | "stream" | "done" = "request";
    const next = () => {
      const waiter = state.waiting.shift();
      if (waiter) waiter.grant();
      else this.forgetIfIdle(origin, state);
    };
    return {
      streaming: () => {
        if (held !== "request") return;
        held = "stream";
        state.active--;
        state.streams++;
        next();
      },
      release: () => {
        if (held === "done") return;
        if (held === "request") {
          held = "done";
          state.active--;
          next();
        } else {
          held = "done";
          state.streams--;
          this.forgetIfIdle(origin, state);
        }
      },
    };
  }

  private forgetIfIdle(origin: string, state: OriginState): void {
    if (state.active === 0 && state.streams === 0 && state.waiting.length === 0 && this.origins.get(origin) === state)
      this.origins.delete(origin);
  }

  private waitTimeout(origin: string, state: OriginState, waitedMs: number, cause: unknown): ConnectionWaitTimeout {
    const queued = state.waiting.length;
    return new ConnectionWaitTimeout(
      `Toolscope already has ${state.active} requests in flight to ${origin}, its limit per server (TOOLSCOPE_MAX_CONNECTIONS_PER_ORIGIN=${this.limit}), and none of them finished while this one waited ${waitedMs} ms for a connection, so it was not sent${queued ? ` (${queued} more are waiting)` : ""}.`,
      "The server is slow to answer the requests before this one (or hangs on them). Try again shortly; when running Toolscope locally you can raise TOOLSCOPE_MAX_CONNECTIONS_PER_ORIGIN.",
      { cause },
    );
  }
}

/** The process-wide limiter for a limit (route handlers and pages load this module separately: one count for both). */
function sharedLimiter(limit: number): OriginLimiter {
  return processSingleton(`egress.origin-limiter.${limit}`, () => new OriginLimiter(limit));
}

/** A body that calls `done` once it ends, fails or is cancelled (the connection is free again). */
function observedBody(body: ReadableStream<Uint8Array>, done: () => void, meter?: (bytes: number) => void): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return endObservedStream(
    () => reader.read() as Promise<IteratorResult<Uint8Array>>,
    (reason) => reader.cancel(reason),
    done,
    meter,
  );
}

export interface SafeFetchOptions extends Partial<EgressPolicy> {
  allowPrivate: boolean;
  /** Connect timeout, and the request timeout the connection wait takes its share of. */
  connectTimeoutMs: number;
  /** Requests in flight per origin (default MAX_CONNECTIONS_PER_ORIGIN). */
  maxConnectionsPerOrigin?: number;
  /** Longest wait for a connection (default CONNECTION_WAIT_SHARE of connectTimeoutMs). */
  connectionWaitMs?: number;
  /** Tests only: resolve names without DNS. */
  resolve?: Resolver;
  /** Tests only: count against this limiter instead of the process-wide one. */
  limiter?: OriginLimiter;
}

/**
 * The one egress path for user-supplied targets: http(s) only, every address checked at connect time
 * (DNS answers, IP literals and redirect targets alike), and the connection made to the checked address.
 * Requests to one origin beyond its connection limit wait their turn within a bound (see OriginLimiter).
 */
export function createSafeFetch(options: SafeFetchOptions): typeof fetch {
  const policy: EgressPolicy = { allowPrivate: options.allowPrivate, allow: options.allow ?? [] };
  const dispatcher = agentFor(policy, options.connectTimeoutMs, options.resolve);
  const limiter = options.limiter ?? sharedLimiter(options.maxConnectionsPerOrigin ?? MAX_CONNECTIONS_PER_ORIGIN);
  const waitMs = options.connectionWaitMs ?? Math.round(options.connectTimeoutMs * CONNECTION_WAIT_SHARE);
  return (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      throw new BlockedTargetError(`Only http and https URLs can be reached, not ${url.protocol}`);
    }
    const signal = init?.signal ?? (input instanceof Request ? input.signal : undefined);
    // The request this fetch is made for pays for every byte of the answer (see ./upstream-budget.ts).
    const budget = currentUpstreamBudget();
    const meter = budget && ((bytes: number) => budget.charge(bytes));
    const slot = await limiter.acquire(url.origin, waitMs, signal);
    // Aborting frees the connection whether or not anyone reads the body.
    const release = () => {
      signal?.removeEventListener("abort", release);
      slot.release();
    };
    signal?.addEventListener("abort", release, { once: true });
    // The proxy's MCP requests (redirect: "manual", string bodies) take the cheaper path; the rest keep fetch.
    const lean = leanHeaders(init);
    if (lean) {
      const res = await leanFetch(dispatcher, url, init!, lean, release, meter);
      if ((res.headers.get("content-type") ?? "").toLowerCase().includes("text/event-stream")) slot.streaming();
      return res;
    }
    let res: Response;
    try {
      res = (await undiciFetch(url, { ...(init as object), dispatcher } as never)) as unknown as Response;
    } catch (err) {
      release();
      throw err;
    }
    if (!res.body) {
      release();
      return res;
    }
    if ((res.headers.get("content-type") ?? "").toLowerCase().includes("text/event-stream")) slot.streaming();
    const observed = new Response(observedBody(res.body, release, meter), {
      status: res.status,
      statusText: res.statusText,
      headers: res.headers,
    });
    // Where the answer came from after redirects (the icon proxy refuses a hop to http): a new Response has no URL.
    Object.defineProperties(observed, { url: { value: res.url }, redirected: { value: res.redirected } });
    return observed;
  }) as typeof fetch;
}
