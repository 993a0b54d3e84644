/**
 * Measures the server docs page (`/docs?server=…`) of a running Toolscope for an MCP server with many tools: how
 * long the first view takes, how long a view takes while the docs snapshot is reused, and how much the page weighs.
 *
 *   node --import tsx scripts/bench/docs-page.ts http://127.0.0.1:3000 [--runs 3] [--tools 1000]
 *
 * It starts its own upstream: a 2026-07-28 (stateless Streamable HTTP) MCP server built with the SDK, on a free
 * loopback port, listing N realistic synthetic tools (scripts/bench/synthetic-tools.ts) over pages of
 * {@link PAGE_SIZE} (BENCH_PAGE_SIZE to change it), with `tools/list` cache hints of a minute ({@link startSyntheticServer}
 * starts one on its own, for other scripts). Toolscope must be allowed to reach 127.0.0.1: its
 * default local mode (TOOLSCOPE_MODE=local, as the e2e tests run it) allows private and loopback targets; hosted
 * mode refuses them unless DANGEROUSLY_ALLOW_PRIVATE_NETWORK=1.
 *
 * - First view: every run asks for a server URL Toolscope has never seen (a path of its own on the same upstream),
 *   so no cache (era verdict, tool-list cache, docs snapshot) can answer it; the time is until the complete HTML
 *   response has arrived. Two unmeasured warm-up views first (the first measured view was still ~2× slower after
 *   one), so module loading and JIT warm-up are not counted: a running server has served pages before.
 * - Reuse: the same URL again, `runs` times, while its docs snapshot is still fresh.
 * - Weight: the document as served, decoded (raw bytes). Next.js embeds the RSC payload in it as inline
 *   `<script>self.__next_f.push(…)</script>` tags: `rscBytes` are those tags, `htmlBytes` the rest of the document,
 *   `totalBytes` the whole document (their sum), `htmlGzipBytes` the whole document gzipped (what travels).
 *   `rscNavBytes`: the `RSC: 1` answer a client-side navigation to the page fetches instead (the home page's
 *   connect form does that), for information.
 */
import { gzipSync } from "node:zlib";
import { fileURLToPath } from "node:url";
import { McpServer, createMcpHandler, type Tool as SdkTool } from "@modelcontextprotocol/server";
import { serveFetchHandler } from "../../lib/demo/testing/node-http-adapter.ts";
import { syntheticTools } from "./synthetic-tools.ts";

export interface DocsFigures {
  tools: number;
  firstViewMs: number[];
  reuseMs: number[];
  htmlBytes: number;
  htmlGzipBytes: number;
  rscBytes: number;
  totalBytes: number;
  /** The `RSC: 1` payload of a client-side navigation to the page (not part of a document load). */
  rscNavBytes?: number;
}

/** Tools per `tools/list` page: big servers page their lists, and each page is a round trip Toolscope waits for. */
export const PAGE_SIZE = Number(process.env.BENCH_PAGE_SIZE ?? 100);

function mcpServer(tools: SdkTool[]): McpServer {
  const server = new McpServer(
    { name: "bench-server", title: `Benchmark server (${tools.length} tools)`, version: "1.0.0" },
    {
      instructions: "A synthetic server for the docs page benchmark.",
      capabilities: { tools: { listChanged: false } },
      cacheHints: { "tools/list": { ttlMs: 60_000, cacheScope: "public" } },
    },
  );
  // Raw definitions, served as they are: the same objects the render benchmark uses, no registerTool round trip.
  server.server.setRequestHandler("tools/list", (request) => {
    const cursor = Number(request.params?.cursor ?? 0);
    const start = Number.isInteger(cursor) && cursor > 0 ? cursor : 0;
    const end = start + PAGE_SIZE;
    return { tools: tools.slice(start, end), ...(end < tools.length ? { nextCursor: String(end) } : {}) };
  });
  return server;
}

async function timedGet(url: string, headers: Record<string, string> = {}): Promise<{ ms: number; body: string }> {
  const t = performance.now();
  const res = await fetch(url, { headers: { accept: "text/html", ...headers } });
  const body = await res.text();
  const ms = performance.now() - t;
  if (!res.ok) throw new Error(`GET ${url}: HTTP ${res.status}\n${body.slice(0, 500)}`);
  return { ms, body };
}

/** The inline flight scripts of a document, as served (tags included). */
function flightScripts(html: string): string[] {
  // A nonce attribute when the page has a CSP (it does).
  return html.match(/<script(?: nonce="[^"]*")?>self\.__next_f\.push\([\s\S]*?<\/script>/g) ?? [];
}

/** An MCP server listing `n` synthetic tools on a free port of 127.0.0.1; every path under `url` is its endpoint. */
export async function startSyntheticServer(n: number): Promise<{ url: URL; close(): Promise<void> }> {
  // The contract's Tool is the looser "as it arrives" shape; these are well-formed SDK tools.
  const tools = syntheticTools(n) as SdkTool[];
  const handler = createMcpHandler(() => mcpServer(tools), { legacy: "reject" });
  const served = await serveFetchHandler(handler);
  return {
    url: served.url,
    async close() {
      await served.close();
      await handler.close();
    },
  };
}

export async function measureDocsPage(appUrl: string, options: { runs?: number; tools?: number } = {}): Promise<DocsFigures> {
  const runs = options.runs ?? 3;
  const n = options.tools ?? 1_000;
  const upstream = await startSyntheticServer(n);
  // Unique per measurement too, so a second measurement against the same app starts cold as well.
  const nonce = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
  const page = (i: number | string) => {
    const server = new URL(`/mcp/bench-${nonce}-${i}`, upstream.url).href;
    return new URL(`/docs?server=${encodeURIComponent(server)}`, appUrl).href;
  };
  try {
    for (const w of ["warm-up-1", "warm-up-2"]) await timedGet(page(w));
    const firstViewMs: number[] = [];
    let last = "";
    let body = "";
    for (let i = 0; i < runs; i++) {
      last = page(i);
      const got = await timedGet(last);
      firstViewMs.push(got.ms);
      body = got.body;
    }
    const reuseMs: number[] = [];
    for (let i = 0; i < runs; i++) reuseMs.push((await timedGet(last)).ms);

    if (!body.includes(`${n} tools`) && !body.includes(`(${n})`)) throw new Error(`the docs page does not show ${n} tools`);
    const totalBytes = Buffer.byteLength(body);
    const rscBytes = flightScripts(body).reduce((sum, s) => sum + Buffer.byteLength(s), 0);
    const nav = await timedGet(last, { rsc: "1", accept: "text/x-component" });
    return {
      tools: n,
      firstViewMs,
      reuseMs,
      htmlBytes: totalBytes - rscBytes,
      htmlGzipBytes: gzipSync(body).length,
      rscBytes,
      totalBytes,
      rscNavBytes: Buffer.byteLength(nav.body),
    };
  } finally {
    await upstream.close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const flag = (name: string) => {
    const i = args.indexOf(name);
    return i >= 0 ? Number(args[i + 1]) : undefined;
  };
  const appUrl = args.find((a) => /^https?:\/\//.test(a));
  if (!appUrl) {
    console.error("usage: node --import tsx scripts/bench/docs-page.ts <Toolscope URL> [--runs 3] [--tools 1000]");
    process.exit(2);
  }
  const figures = await measureDocsPage(appUrl, { runs: flag("--runs"), tools: flag("--tools") });
  const ms = (xs: number[]) => xs.map((x) => `${x.toFixed(0)} ms`).join(", ");
  const kb = (x: number) => `${(x / 1024).toFixed(0)} KiB`;
  console.log(`docs page, ${figures.tools} tools (pages of ${PAGE_SIZE}), ${appUrl}`);
  console.log(`  first view:  ${ms(figures.firstViewMs)}`);
  console.log(`  reuse:       ${ms(figures.reuseMs)}`);
  console.log(`  HTML:        ${kb(figures.htmlBytes)} (${figures.htmlBytes} B, without the inline RSC payload)`);
  console.log(`  RSC inline:  ${kb(figures.rscBytes)} (${figures.rscBytes} B)`);
  console.log(`  total:       ${kb(figures.totalBytes)} (${figures.totalBytes} B), gzip ${kb(figures.htmlGzipBytes)}`);
  console.log(`  RSC (client navigation, RSC: 1): ${kb(figures.rscNavBytes ?? 0)}`);
  console.log(JSON.stringify(figures));
}
