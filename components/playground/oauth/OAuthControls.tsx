"use client";

import { useState } from "react";
import { OAuthChip } from "./OAuthChip";
import { OAuthDebugger } from "./OAuthDebugger";
import { PhaseLine, SignInPanel } from "./SignInPanel";
import type { OAuthController } from "./useOAuth";

/** The sign-in panel while a refused request waits for it (with the debugger a click away). */
export function OAuthPrompt({ oauth, dismissible }: { oauth: OAuthController; dismissible: boolean }) {
  const [debugging, setDebugging] = useState(false);
  if (!oauth.prompt) return null;
  return (
    <>
      <SignInPanel
        // A new refusal (another reason or request) starts the form afresh: its scope comes from the challenge.
        key={`${oauth.prompt.reason}|${JSON.stringify(oauth.prompt.request)}`}
        prompt={oauth.prompt}
        phase={oauth.phase}
        remembered={oauth.session?.remember ?? false}
        onSignIn={oauth.signIn}
        onCancelWait={oauth.cancelSignIn}
        {...(dismissible ? { onDismiss: oauth.dismiss } : {})}
        {...(oauth.log ? { onDebugger: () => setDebugging(true) } : {})}
      />
      {debugging && <OAuthDebugger log={oauth.log} onClose={() => setDebugging(false)} />}
    </>
  );
}

/**
 * Beside the server's name: "Signed in to …" with Sign out and the debugger; signed out, the debugger of the latest
 * flow (a failed one, a sign-out) and what happened, when there is something to say.
 */
export function OAuthStatus({ oauth }: { oauth: OAuthController }) {
  const [debugging, setDebugging] = useState(false);
  const open = () => setDebugging(true);
  return (
    <>
      {oauth.signedIn ? (
        <OAuthChip
          issuer={oauth.signedIn.issuer}
          busy={oauth.phase.kind === "working"}
          onSignOut={() => void oauth.signOut()}
          onDebugger={open}
        />
      ) : oauth.log && !oauth.prompt ? (
        <button
          type="button"
          onClick={open}
          aria-haspopup="dialog"
          className="rounded-md border border-zinc-300 px-2 py-0.5 text-xs hover:bg-zinc-50 dark:border-zinc-700 dark:hover:bg-zinc-900"
        >
          OAuth debugger
        </button>
      ) : null}
      {!oauth.prompt && <PhaseLine phase={oauth.phase} />}
      {debugging && <OAuthDebugger log={oauth.log} onClose={() => setDebugging(false)} />}
    </>
  );
}
