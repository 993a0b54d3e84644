/**
 * The proxy's cost side by side with what it stands on, from one run: a direct SDK call, one raw POST to the upstream,
 * the echo route of a bare Next.js app (the floor, ./bare-next.ts), the same echo route inside Toolscope's server
 * (what Toolscope's own plumbing adds to any route), and POST /api/rpc — interleaved sequential calls for latency,
 * then autocannon for throughput.
 */
import { readFileSync } from "node:fs";
import autocannon from "autocannon";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { summarize, type Summary } from "./stats.ts";

export interface ProxySetup {
  appUrl: string;
  /** The bare Next.js app (scripts/bench/bare-next): POST /api/echo, GET /api/health; "" where a script runs none. */
  nextUrl: string;
  upstreamUrl: string;
  /** The body of POST /api/rpc for one echo call (also what the bare route echoes, so both parse the same JSON). */
  rpcBody: string;
  /** The POST the proxy put on the wire for that call, replayed as the raw upstream request. */
  raw: { headers: Record<string, string>; body: string };
}

import { APP_HEADERS as JSON_HEADERS } from "./app.ts";

async function postJson(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Record<string, unknown>> {
  const res = await fetch(url, { method: "POST", headers: { ...JSON_HEADERS, ...headers }, body: JSON.stringify(body) });
  const json = (await res.json()) as Record<string, unknown>;
  if (!res.ok) throw new Error(`${url} answered ${res.status}: ${JSON.stringify(json).slice(0, 400)}`);
  return json;
}

/** Connect through Toolscope, list, make one call, and keep what the call sent upstream for the raw baseline. */
export async function setupProxy(appUrl: string, upstreamUrl: string, nextUrl = ""): Promise<ProxySetup> {
  const connected = await postJson(`${appUrl}/api/connect`, { url: upstreamUrl });
  const connection = connected.connection;
  await postJson(`${appUrl}/api/tools`, { connection });
  const message = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "echo", arguments: { text: "hello from the bench" } } };
  const rpcBody = JSON.stringify({ connection, message });
  const answer = await postJson(`${appUrl}/api/rpc`, { connection, message });
  const exchanges = answer.exchanges as { request: { method: string; headers: [string, string][]; body?: string } }[];
  const post = exchanges.find((x) => x.request.method === "POST");
  if (!post?.request.body) throw new Error("The proxy's answer holds no recorded POST to replay.");
  const headers = Object.fromEntries(post.request.headers.filter(([n]) => !/^(content-length|host|connection)$/i.test(n)));
  return { appUrl, nextUrl, upstreamUrl, rpcBody, raw: { headers, body: post.request.body } };
}

export interface LatencyFigures {
  direct: Summary;
  raw: Summary;
  /** The bare Next.js app's echo route. */
  next: Summary;
  /** The echo route inside Toolscope's server (TOOLSCOPE_BENCH=1): a route behind Toolscope's server, hook and guard. */
  bare: Summary;
  rpc: Summary;
  /** Per round, the bare Next.js app + raw: the least any Next.js proxy could take. */
  floor: Summary;
  /** Per round, the echo route inside Toolscope + raw: the floor as measured before issue 28. */
  insideFloor: Summary;
  /** The same over the first warm-up rounds (as many as timed ones, or fewer): a process fresh from start, JIT warming. */
  warming: { rounds: number; floor: Summary; rpc: Summary };
}

/** Untimed rounds before the timed ones, by default (see measureLatency): critical-path.ts warms as many calls. */
export const WARMUP_ROUNDS = 3000;

/**
 * Sequential calls, the four kinds interleaved and rotated each round, so drift hits them alike. The timed rounds
 * follow `warmup` rounds: V8 takes thousands of requests to optimise a route's code (a fresh process measured
 * +0.9–1.1 ms over the floor in its first 1,000 rounds and +0.5–0.7 ms later, three restarts alike), and a hosted
 * server spends all but its first minute warm. The first rounds are summarised too, so the cold figure stays in view.
 */
export async function measureLatency(setup: ProxySetup, rounds: number, warmup: number): Promise<LatencyFigures> {
  const client = new Client({ name: "toolscope-bench", version: "1.0.0" }, { versionNegotiation: { mode: "auto" } });
  await client.connect(new StreamableHTTPClientTransport(new URL(setup.upstreamUrl)));
  const timed = async (f: () => Promise<unknown>) => {
    const t = performance.now();
    await f();
    return performance.now() - t;
  };
  const kinds: Record<keyof Omit<LatencyFigures, "floor" | "insideFloor" | "warming">, () => Promise<unknown>> = {
    direct: () => client.callTool({ name: "echo", arguments: { text: "hello from the bench" } }),
    raw: () => fetch(setup.upstreamUrl, { method: "POST", headers: setup.raw.headers, body: setup.raw.body }).then((r) => r.text()),
    next: () => fetch(`${setup.nextUrl}/api/echo`, { method: "POST", headers: JSON_HEADERS, body: setup.rpcBody }).then((r) => r.text()),
    bare: () =>
      fetch(`${setup.appUrl}/api/bench/echo`, { method: "POST", headers: JSON_HEADERS, body: setup.rpcBody }).then((r) => r.text()),
    rpc: () => fetch(`${setup.appUrl}/api/rpc`, { method: "POST", headers: JSON_HEADERS, body: setup.rpcBody }).then((r) => r.text()),
  };
  const names = Object.keys(kinds) as (keyof typeof kinds)[];
  const samples: Record<string, number[]> = { direct: [], raw: [], next: [], bare: [], rpc: [], floor: [], insideFloor: [] };
  const warming: Record<"rpc" | "floor", number[]> = { rpc: [], floor: [] };
  for (let round = 0; round < warmup + rounds; round++) {
    const took: Record<string, number> = {};
    for (let k = 0; k < names.length; k++) {
      const name = names[(k + round) % names.length];
      took[name] = await timed(kinds[name]);
    }
    if (round < warmup) {
      if (round < rounds) {
        warming.rpc.push(took.rpc);
        warming.floor.push(took.next + took.raw);
      }
      continue;
    }
    for (const n of names) samples[n].push(took[n]);
    samples.floor.push(took.next + took.raw);
    samples.insideFloor.push(took.bare + took.raw);
  }
  await client.close();
  return {
    direct: summarize(samples.direct),
    raw: summarize(samples.raw),
    next: summarize(samples.next),
    bare: summarize(samples.bare),
    rpc: summarize(samples.rpc),
    floor: summarize(samples.floor),
    insideFloor: summarize(samples.insideFloor),
    warming: { rounds: warming.rpc.length, floor: summarize(warming.floor), rpc: summarize(warming.rpc) },
  };
}

export interface ThroughputRun {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

export function load(
  url: string,
  body: string,
  connections: number,
  seconds: number,
  headers: Record<string, string> = JSON_HEADERS,
): Promise<ThroughputRun> {
  return autocannon({ url, method: "POST", body, headers, connections, duration: seconds, timeout: 30 }).then((r) => ({
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors + r.timeouts,
    non2xx: r.non2xx,
  }));
}

export interface ThroughputFigures {
  connections: number;
  /** The bare Next.js app's echo route. */
  next: ThroughputRun[];
  /** The echo route inside Toolscope. */
  bare: ThroughputRun[];
  rpc: ThroughputRun[];
  upstream?: ThroughputRun[];
}

/** The bare app's route, the route inside Toolscope and /api/rpc alternated `rounds` times at one concurrency (and the upstream alone, for scale). */
export async function measureThroughput(
  setup: ProxySetup,
  connections: number,
  seconds: number,
  rounds: number,
): Promise<ThroughputFigures> {
  const out: ThroughputFigures = { connections, next: [], bare: [], rpc: [], upstream: [] };
  for (let i = 0; i < rounds; i++) {
    out.next.push(await load(`${setup.nextUrl}/api/echo`, setup.rpcBody, connections, seconds));
    out.bare.push(await load(`${setup.appUrl}/api/bench/echo`, setup.rpcBody, connections, seconds));
    out.rpc.push(await load(`${setup.appUrl}/api/rpc`, setup.rpcBody, connections, seconds));
  }
  out.upstream!.push(await load(setup.upstreamUrl, setup.raw.body, connections, Math.max(2, seconds / 2), setup.raw.headers));
  return out;
}

/** CPU time (user + system) a process has used so far, in ms, from /proc (Linux). */
export function processCpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // Fields after the command name (which may hold spaces) start after its closing parenthesis; utime and stime are 14 and 15.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
}
/** USER_HZ: 100 on Linux on every architecture the bench runs on. */
const CLOCK_TICKS_PER_SECOND = 100;

export interface ServerCpuFigures {
  /** CPU ms the bare Next.js app's process spent per echo request. */
  next: number;
  /** CPU ms Toolscope's process spent per echo request on its own echo route. */
  bare: number;
  /** CPU ms it spent per proxied call. */
  rpc: number;
}

/** What one request costs Toolscope's own process in CPU, measured over `calls` sequential requests of each kind. */
export async function measureServerCpu(setup: ProxySetup, pids: { app: number; next: number }, calls: number): Promise<ServerCpuFigures> {
  const perCall = async (base: string, path: string, pid: number) => {
    const before = processCpuMs(pid);
    for (let i = 0; i < calls; i++)
      await fetch(`${base}${path}`, { method: "POST", headers: JSON_HEADERS, body: setup.rpcBody }).then((r) => r.text());
    return (processCpuMs(pid) - before) / calls;
  };
  const best = async (base: string, path: string, pid: number) => Math.min(await perCall(base, path, pid), await perCall(base, path, pid));
  return {
    next: await best(setup.nextUrl, "/api/echo", pids.next),
    bare: await best(setup.appUrl, "/api/bench/echo", pids.app),
    rpc: await best(setup.appUrl, "/api/rpc", pids.app),
  };
}

export interface HealthFigures {
  /** GET /api/health of the bare Next.js app. */
  next: Summary;
  /** GET /api/health of Toolscope (its liveness answer). */
  app: Summary;
}

/** Sequential health probes of both servers, interleaved, after `warmup` untimed rounds. */
export async function measureHealth(setup: ProxySetup, rounds: number, warmup: number): Promise<HealthFigures> {
  const probe = async (url: string) => {
    const t = performance.now();
    await fetch(url).then((r) => r.text());
    return performance.now() - t;
  };
  const next: number[] = [];
  const app: number[] = [];
  for (let round = 0; round < warmup + rounds; round++) {
    const order = round % 2 === 0 ? [setup.nextUrl, setup.appUrl] : [setup.appUrl, setup.nextUrl];
    const took = [await probe(`${order[0]}/api/health`), await probe(`${order[1]}/api/health`)];
    if (round < warmup) continue;
    next.push(order[0] === setup.nextUrl ? took[0] : took[1]);
    app.push(order[0] === setup.appUrl ? took[0] : took[1]);
  }
  return { next: summarize(next), app: summarize(app) };
}
