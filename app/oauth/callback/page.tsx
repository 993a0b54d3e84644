import type { Metadata } from "next";
import { OAuthCallback } from "@/components/playground/oauth/OAuthCallback";

// No Referer from this page: its address carries the authorization code until the island strips it.
export const metadata: Metadata = { title: "Sign-in", referrer: "no-referrer", robots: { index: false } };

/**
 * Where authorization servers send the user back (`redirectUri` of POST /api/oauth/authorize). The island hands the
 * query to the playground that started the sign-in (popup: message; redirect: sessionStorage, then back).
 */
export default function OAuthCallbackPage() {
  return (
    <div className="mx-auto max-w-xl px-4 py-10">
      <OAuthCallback />
    </div>
  );
}
