"use client";

import { useEffect, useState } from "react";
import {
  loadPendingSignIn,
  OAUTH_CALLBACK_MESSAGE,
  OAUTH_CHANNEL,
  parseCallbackQuery,
  saveCallbackResult,
  type OAuthCallbackResult,
} from "@/lib/playground/oauth/oauth-session";

/** What this page load delivered: once only (the query is gone after the first run, e.g. React's dev double effect). */
let delivered: View | undefined;

/** Hand the callback's query over (message, channel, or sessionStorage and back) and say what to show. */
function deliver(): View {
  const result = parseCallbackQuery(window.location.search);
  // Out of the address bar (and so out of the history and any later Referer) before anything else.
  window.history.replaceState(null, "", window.location.pathname);
  if (!result.code && !result.error) return { kind: "empty" };
  const message = { type: OAUTH_CALLBACK_MESSAGE, ...result };
  try {
    const channel = new BroadcastChannel(OAUTH_CHANNEL);
    channel.postMessage(message);
    channel.close();
  } catch {
    // No BroadcastChannel: the opener's message (or the redirect) carries it.
  }
  const opener = window.opener as Window | null;
  // targetOrigin: our own origin, so a foreign page that opened this one learns nothing.
  if (opener && opener !== window) opener.postMessage(message, window.location.origin);
  // A pending sign-in in this tab's own storage means the sign-in left the playground page (redirect mode): go back.
  const pending = opener ? null : loadPendingSignIn();
  if (pending) {
    saveCallbackResult(result);
    window.location.replace(pending.returnUrl);
    return { kind: "done", result, returning: true };
  }
  // Scripts may close a window they opened; a popup is one. Elsewhere this does nothing, and the text says what to do.
  window.setTimeout(() => window.close(), 600);
  return { kind: "done", result, returning: false };
}

type View = { kind: "reading" } | { kind: "done"; result: OAuthCallbackResult; returning: boolean } | { kind: "empty" };

/**
 * The OAuth callback: hands what the authorization server sent to the playground that started the sign-in. In a
 * popup, by postMessage to the opener (our origin only) and on a BroadcastChannel (an opener cut off by the
 * authorization server's COOP still hears it), then closes itself; after a full-page redirect (popup blocked), through
 * sessionStorage and back to the playground. The code is never logged, and leaves the address bar at once.
 */
export function OAuthCallback() {
  const [view, setView] = useState<View>({ kind: "reading" });

  useEffect(() => {
    delivered ??= deliver();
    const next = delivered;
    // After this render pass, not in it: the view follows from what deliver() did to the page.
    const timer = window.setTimeout(() => setView(next), 0);
    return () => window.clearTimeout(timer);
  }, []);

  if (view.kind === "reading") return <p className="text-sm text-zinc-500">Finishing sign-in…</p>;
  if (view.kind === "empty")
    return (
      <section aria-labelledby="callback-title">
        <h2 id="callback-title" className="text-lg font-semibold">
          Sign-in failed
        </h2>
        <p className="mt-2 text-sm">
          This page is where an authorization server sends you back after signing in, but it came without an answer (no code and no error).
          Start the sign-in again from the playground.
        </p>
      </section>
    );
  const { result, returning } = view;
  if (result.error)
    return (
      <section aria-labelledby="callback-title" role="alert">
        <h2 id="callback-title" className="text-lg font-semibold">
          Sign-in failed
        </h2>
        <p className="mt-2 text-sm">
          The authorization server answered <code className="font-mono">{result.error}</code>
          {result.error === "access_denied" ? " (access was denied, e.g. consent was refused)" : ""}
          {result.errorDescription ? `: ${result.errorDescription}` : "."}
        </p>
        <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-400">
          {returning ? "Returning to the playground…" : "The playground has been told. You can close this window."}
        </p>
      </section>
    );
  return (
    <section aria-labelledby="callback-title">
      <h2 id="callback-title" className="text-lg font-semibold">
        Signed in — {returning ? "returning to the playground…" : "you can close this window"}
      </h2>
      <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-400">
        The playground redeems the authorization code and sends your request again.
      </p>
    </section>
  );
}
