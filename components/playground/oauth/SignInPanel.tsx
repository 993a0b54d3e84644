"use client";

import { useEffect, useId, useRef, useState } from "react";
import type { OAuthChallenge, OAuthClientAuthMethod } from "@/lib/mcp/oauth-contract";
import { connectField } from "@/components/ui/EraSelect";
import type { OAuthPhase, SignInFields, SignInPrompt } from "./useOAuth";

interface Props {
  prompt: SignInPrompt;
  phase: OAuthPhase;
  /** Where the session was kept last time (the checkbox starts there). */
  remembered: boolean;
  onSignIn: (fields: SignInFields) => void;
  onCancelWait: () => void;
  /** Give up on the refused request (absent: nothing to give up, e.g. the connection itself). */
  onDismiss?: () => void;
  /** Open the debugger (absent while there is nothing to show). */
  onDebugger?: () => void;
}

const AUTH_METHODS: { value: OAuthClientAuthMethod | ""; label: string }[] = [
  { value: "", label: "What the authorization server supports" },
  { value: "client_secret_basic", label: "client_secret_basic (HTTP Basic)" },
  { value: "client_secret_post", label: "client_secret_post (in the body)" },
  { value: "none", label: "none (public client)" },
];

/** The challenge as the server sent it: nothing in it is secret, so nothing is masked. */
function ChallengeList({ challenge }: { challenge: OAuthChallenge }) {
  const rows: [string, string | undefined][] = [
    ["Status", `HTTP ${challenge.status}`],
    ["Scheme", challenge.scheme ?? "(no WWW-Authenticate header)"],
    ["resource_metadata", challenge.resourceMetadataUrl],
    ["scope", challenge.scope],
    ["error", challenge.error],
    ["error_description", challenge.errorDescription],
  ];
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 font-mono text-xs" data-testid="oauth-challenge">
      {rows
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => (
          <div key={k} className="contents">
            <dt className="text-zinc-500 dark:text-zinc-400">{k}</dt>
            <dd className="[overflow-wrap:anywhere]">{v}</dd>
          </div>
        ))}
    </dl>
  );
}

/**
 * "This server needs sign-in": the server's challenge, an optional client of the user's own, the scope, where to keep
 * the session, and Sign in (a popup, or the whole page when popups are blocked). The client secret is kept like typed
 * headers: in this browser tab only.
 */
export function SignInPanel({ prompt, phase, remembered, onSignIn, onCancelWait, onDismiss, onDebugger }: Props) {
  const id = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const [fields, setFields] = useState<SignInFields>({
    clientId: "",
    clientSecret: "",
    authMethod: "",
    // The spec's first choice is the challenge's scope; empty lets the server pick (scopes_supported, else none).
    scope: prompt.request.scope ?? "",
    remember: remembered,
  });
  const set = (patch: Partial<SignInFields>) => setFields((f) => ({ ...f, ...patch }));
  const busy = phase.kind === "working" || phase.kind === "waiting";

  // The panel replaces what the user was looking at: its heading takes the focus, so screen readers start here.
  useEffect(() => headingRef.current?.focus(), []);

  return (
    <section
      aria-labelledby={`${id}-title`}
      data-testid="oauth-sign-in"
      className="rounded-md border border-amber-300 bg-amber-50 p-4 text-sm text-zinc-900 dark:border-amber-800 dark:bg-amber-950/40 dark:text-zinc-100"
    >
      <h2 id={`${id}-title`} ref={headingRef} tabIndex={-1} className="text-base font-semibold outline-none">
        This server needs sign-in
      </h2>
      <p className="mt-1">{prompt.reason}</p>
      <div className="mt-3">
        <h3 className="mb-1 text-xs font-medium uppercase tracking-wide text-zinc-500 dark:text-zinc-400">The server&apos;s challenge</h3>
        <ChallengeList challenge={prompt.challenge} />
      </div>
      <form
        className="mt-4 space-y-3"
        aria-busy={busy}
        onSubmit={(e) => {
          e.preventDefault();
          onSignIn(fields);
        }}
      >
        <details className="rounded-md border border-zinc-200 p-2 dark:border-zinc-700">
          <summary className="cursor-pointer select-none">Use my client</summary>
          <p className="mt-1 text-xs text-zinc-600 dark:text-zinc-400">
            A client you registered with the authorization server yourself. Empty: Toolscope uses its Client ID Metadata Document or
            registers one (dynamic registration). The secret is sent to the token endpoint only and kept in this browser tab only.
          </p>
          <div className="mt-2 grid gap-2 sm:grid-cols-2">
            <div>
              <label htmlFor={`${id}-client`} className="mb-1 block text-xs font-medium">
                Client ID
              </label>
              <input
                id={`${id}-client`}
                className={`${connectField} font-mono`}
                autoComplete="off"
                spellCheck={false}
                value={fields.clientId}
                onChange={(e) => set({ clientId: e.target.value })}
              />
            </div>
            <div>
              <label htmlFor={`${id}-secret`} className="mb-1 block text-xs font-medium">
                Client secret
              </label>
              {/* A text field drawn as dots (not type=password): no password manager offers to store it. */}
              <input
                id={`${id}-secret`}
                className={`${connectField} font-mono [-webkit-text-security:disc]`}
                autoComplete="off"
                spellCheck={false}
                value={fields.clientSecret}
                onChange={(e) => set({ clientSecret: e.target.value })}
              />
            </div>
            <div className="sm:col-span-2">
              <label htmlFor={`${id}-method`} className="mb-1 block text-xs font-medium">
                Token endpoint authentication
              </label>
              <select
                id={`${id}-method`}
                className={connectField}
                value={fields.authMethod}
                onChange={(e) => set({ authMethod: e.target.value as SignInFields["authMethod"] })}
              >
                {AUTH_METHODS.map((m) => (
                  <option key={m.value} value={m.value}>
                    {m.label}
                  </option>
                ))}
              </select>
            </div>
          </div>
        </details>
        <div>
          <label htmlFor={`${id}-scope`} className="mb-1 block text-xs font-medium">
            Scope
          </label>
          <input
            id={`${id}-scope`}
            className={`${connectField} font-mono`}
            autoComplete="off"
            spellCheck={false}
            value={fields.scope}
            aria-describedby={`${id}-scope-hint`}
            onChange={(e) => set({ scope: e.target.value })}
          />
          <p id={`${id}-scope-hint`} className="mt-1 text-xs text-zinc-600 dark:text-zinc-400">
            Space-separated. Filled with the challenge&apos;s scope when it has one; empty lets the server choose (the resource&apos;s
            scopes_supported, else none).
          </p>
        </div>
        <label className="flex items-start gap-2">
          <input type="checkbox" className="mt-0.5" checked={fields.remember} onChange={(e) => set({ remember: e.target.checked })} />
          <span>
            Remember on this device
            <span className="block text-xs text-zinc-600 dark:text-zinc-400">
              Unticked, the tokens live in this browser tab only and go when it closes. Ticked, they stay in this browser&apos;s local
              storage until you sign out. Never in tabs, history, saved requests, share links or exports.
            </span>
          </span>
        </label>
        <div className="flex flex-wrap items-center gap-2">
          <button
            type="submit"
            disabled={busy}
            className="rounded-md bg-accent-600 px-4 py-1.5 font-medium text-white hover:bg-accent-700 disabled:opacity-60"
          >
            Sign in
          </button>
          {phase.kind === "waiting" && (
            <button type="button" onClick={onCancelWait} className="rounded-md border border-zinc-300 px-3 py-1.5 dark:border-zinc-700">
              Cancel sign-in
            </button>
          )}
          {onDismiss && !busy && (
            <button type="button" onClick={onDismiss} className="rounded-md border border-zinc-300 px-3 py-1.5 dark:border-zinc-700">
              Not now
            </button>
          )}
          {onDebugger && (
            <button
              type="button"
              onClick={onDebugger}
              aria-haspopup="dialog"
              className="rounded-md border border-zinc-300 px-3 py-1.5 dark:border-zinc-700"
            >
              OAuth debugger
            </button>
          )}
        </div>
        <PhaseLine phase={phase} />
      </form>
    </section>
  );
}

/** What the sign-in is doing, or why it stopped. */
export function PhaseLine({ phase }: { phase: OAuthPhase }) {
  if (phase.kind === "failed")
    return (
      <p role="alert" data-testid="oauth-error" className="text-sm text-red-700 dark:text-red-400">
        {phase.message}
      </p>
    );
  const text =
    phase.kind === "working"
      ? phase.what
      : phase.kind === "waiting"
        ? "Waiting for the sign-in window… Finish signing in there (it closes by itself)."
        : phase.note;
  return text ? (
    <p role="status" data-testid="oauth-status" className="text-sm text-zinc-700 dark:text-zinc-300">
      {text}
    </p>
  ) : null;
}
