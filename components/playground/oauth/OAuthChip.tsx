"use client";

const chipButton = "rounded px-1.5 py-0.5 text-xs underline-offset-2 hover:underline disabled:opacity-60";

interface Props {
  /** The authorization server that issued the tokens (absent when it did not say). */
  issuer?: string;
  busy: boolean;
  onSignOut: () => void;
  onDebugger: () => void;
}

/** Beside the server's name while signed in: whose tokens these are, Sign out (revoke, then forget), the debugger. */
export function OAuthChip({ issuer, busy, onSignOut, onDebugger }: Props) {
  let host = issuer;
  try {
    if (issuer) host = new URL(issuer).host;
  } catch {
    // not a URL: shown as it is
  }
  return (
    <span
      className="inline-flex min-w-0 items-center gap-1 rounded-full border border-emerald-300 bg-emerald-50 px-2 py-0.5 text-xs text-emerald-900 dark:border-emerald-800 dark:bg-emerald-950/50 dark:text-emerald-100"
      data-testid="oauth-chip"
      title={issuer ? `Signed in to ${issuer}` : "Signed in"}
    >
      <span className="min-w-0 truncate">Signed in{host ? ` to ${host}` : ""}</span>
      <button type="button" className={chipButton} onClick={onSignOut} disabled={busy}>
        Sign out
      </button>
      <button type="button" className={chipButton} onClick={onDebugger} aria-haspopup="dialog">
        OAuth debugger
      </button>
    </span>
  );
}
