import "server-only";
import { config } from "./config.ts";

type Handler = { fetch(req: Request): Promise<Response> };
let handler: Promise<Handler> | undefined;

/** The one demo server handler of this process, shared by its public route and the proxy's in-process target. */
export function demoHandler(): Promise<Handler> {
  return (handler ??= import("@/lib/demo/server").then((m) => m.createDemoServerHandler({ pageSize: config().demoPageSize })));
}
