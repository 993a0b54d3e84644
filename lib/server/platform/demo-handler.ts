import "server-only";
import { config } from "./config.ts";
import { processSingleton } from "../../runtime/process-singleton.ts";

type Handler = { fetch(req: Request): Promise<Response> };
/**
 * The one demo server handler of this process, shared by its public route, the proxy's in-process target and the
 * docs pages (one listen bus, one set of legacy sessions).
 */
export function demoHandler(): Promise<Handler> {
  return processSingleton("demo-handler", () =>
    import("@/lib/demo/server").then((m) => m.createDemoServerHandler({ pageSize: config().demoPageSize })),
  );
}
