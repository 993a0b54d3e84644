/**
 * How many tools/list requests proxied calls cost on a server whose list carries no `ttlMs` (absent means
 * immediately stale): none right after the browser listed, and one walk for a burst of calls no one listed for.
 */
import { APP_HEADERS } from "./app.ts";
import type { EchoServer } from "./echo-server.ts";

export interface ListWalkFigures {
  /** tools/list requests made by 20 sequential calls right after POST /api/tools. */
  afterListing: number;
  /** tools/list requests made by 32 concurrent calls to a server no one listed. */
  coldBurst: number;
  calls: number;
}

async function post(url: string, body: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(url, { method: "POST", headers: APP_HEADERS, body: JSON.stringify(body) });
  const json = (await res.json()) as Record<string, unknown>;
  if (!res.ok) throw new Error(`${url} answered ${res.status}: ${JSON.stringify(json).slice(0, 300)}`);
  return json;
}

const call = (i: number) => ({ jsonrpc: "2.0", id: i, method: "tools/call", params: { name: "echo", arguments: { text: `call ${i}` } } });

export async function measureListWalks(appUrl: string, server: EchoServer): Promise<ListWalkFigures> {
  const listed = `${server.base}/listed/mcp`;
  const { connection } = await post(`${appUrl}/api/connect`, { url: listed });
  await post(`${appUrl}/api/tools`, { connection });
  server.resetCounts();
  for (let i = 0; i < 20; i++) await post(`${appUrl}/api/rpc`, { connection, message: call(i) });
  const afterListing = server.counts()["tools/list"] ?? 0;

  const cold = `${server.base}/cold/mcp`;
  const { connection: coldConnection } = await post(`${appUrl}/api/connect`, { url: cold });
  server.resetCounts();
  await Promise.all(Array.from({ length: 32 }, (_, i) => post(`${appUrl}/api/rpc`, { connection: coldConnection, message: call(i) })));
  const coldBurst = server.counts()["tools/list"] ?? 0;
  return { afterListing, coldBurst, calls: server.counts()["tools/call"] ?? 0 };
}
