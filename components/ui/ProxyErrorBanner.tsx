import type { ProxyErrorBody } from "@/lib/mcp/contract";

const TITLES: Record<ProxyErrorBody["error"]["kind"], string> = {
  "bad-request": "The request could not be sent",
  "blocked-target": "This address is not reachable from the hosted proxy",
  "upstream-unreachable": "The server could not be reached",
  "upstream-timeout": "The server did not answer in time",
  // Also a 5xx, a 401, a redirect loop: the message says which; the title must fit them all.
  "upstream-protocol": "The server did not give a usable answer",
  "upstream-rate-limited": "The server asks Toolscope to wait before trying again",
  "upstream-auth": "The server needs you to sign in",
  "oauth-flow": "Sign-in failed",
  "stream-broken": "The server's stream ended before the answer",
  "too-large": "Too large",
  "request-timeout": "The request did not arrive in time",
  "rate-limited": "Too many requests",
  forbidden: "Toolscope refused this request",
  "not-found": "No longer waiting",
  // A restart, or this instance is full (admission control): the message says which.
  unavailable: "Toolscope cannot take this request right now",
  internal: "Toolscope failed",
};

/** "We couldn't ask": a proxy or network problem, with what to do. Props: `error` from our API. */
export function ProxyErrorBanner({ error }: { error: ProxyErrorBody["error"] }) {
  return (
    <div
      role="alert"
      data-testid="proxy-error"
      data-kind={error.kind}
      className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-900 dark:border-red-900 dark:bg-red-950/60 dark:text-red-200"
    >
      <p className="font-semibold">{TITLES[error.kind] ?? "Error"}</p>
      <p className="mt-1">{error.message}</p>
      {error.hint && <p className="mt-1 text-red-800 dark:text-red-300">{error.hint}</p>}
    </div>
  );
}
