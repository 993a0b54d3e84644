import type { ConnectionDescriptor } from "@/lib/mcp/contract";
import { resolveTarget, type BuiltinTarget } from "./egress/targets.ts";
import { streamableUpstream } from "./transports/upstream-http.ts";
import { sseUpstream } from "./transports/upstream-sse.ts";
import { stdioUpstream } from "./transports/upstream-stdio.ts";
import { isStdioUrl, type Upstream, type UpstreamConfig } from "./upstream.ts";

/** The upstream for a URL (to connect) or a descriptor (every later call). */
export async function upstreamFor(
  of: string | ConnectionDescriptor,
  ctx: { config: UpstreamConfig; origin: string; builtins?: Readonly<Record<string, BuiltinTarget>> },
): Promise<Upstream> {
  const url = typeof of === "string" ? of : of.url;
  if (isStdioUrl(url)) return stdioUpstream(ctx.config);
  const target = await resolveTarget(url, ctx.origin, ctx.config, ctx.builtins);
  if (typeof of !== "string" && of.transport === "sse") return sseUpstream(target, ctx.config);
  return streamableUpstream(target, ctx.config);
}
