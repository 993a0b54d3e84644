/**
 * Tests only: a web-standard `fetch` handler on 127.0.0.1, for the client core's fixture servers (the shared
 * adapter, lib/testing/serve-fetch.ts, with the origin as the handle).
 */
import { serveFetchHandler, type FetchHandler } from "../../testing/serve-fetch.ts";

export interface LoopbackServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  close(): Promise<void>;
}

/** Listens on 127.0.0.1 (`port` 0, the default, picks a free one). */
export async function serveOnLoopback(handler: FetchHandler, port = 0): Promise<LoopbackServer> {
  const { origin, close } = await serveFetchHandler(handler, "", port);
  return { origin, close };
}
