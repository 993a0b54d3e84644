import "server-only";
import ipaddr from "ipaddr.js";

/**
 * The header our own HTTP server (scripts/server.mjs) sets to the socket's peer address on every request, after
 * dropping any value a client sent. Next.js route handlers do not see the socket.
 */
export const PEER_HEADER = "x-toolscope-peer";

/** Read-only view of request headers (a `Headers` or Next's `ReadonlyHeaders`). */
interface HeaderSource {
  get(name: string): string | null;
}

/**
 * Who is asking, for rate limits: the socket's peer address, or, when `trustProxy` reverse-proxy hops sit in
 * front of us, the address the outermost trusted proxy saw (the `trustProxy`-th entry from the right of
 * `X-Forwarded-For`: entries further left were written by the client and prove nothing).
 */
export function clientIdentity(headers: HeaderSource, trustProxy: number): string {
  const peer = headers.get(PEER_HEADER)?.trim() || "unknown-peer";
  if (trustProxy <= 0) return normalise(peer);
  const forwarded = (headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const hop = forwarded[forwarded.length - trustProxy];
  return normalise(hop ?? forwarded[0] ?? peer);
}

/** One identity per address: IPv4-mapped IPv6 is the IPv4 address; IPv6 clients are keyed by their /64. */
function normalise(ip: string): string {
  const bare = ip.replace(/%.*$/, "");
  if (!ipaddr.isValid(bare)) return ip;
  const addr = ipaddr.process(bare);
  if (addr.kind() === "ipv4") return addr.toString();
  // One household or VM usually owns a whole /64: counting per address would let it rotate through 2^64.
  return `${(addr as ipaddr.IPv6).toNormalizedString().split(":").slice(0, 4).join(":")}::/64`;
}
