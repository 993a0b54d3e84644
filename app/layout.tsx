import type { Metadata } from "next";
import { headers } from "next/headers";
import Link from "next/link";
import { ThemeToggle } from "@/components/layout/ThemeToggle";
import { PlaygroundLink } from "@/components/layout/PlaygroundLink";
import { THEME_INIT_SCRIPT } from "@/components/layout/theme-script";
import { config } from "@/lib/server/platform/config";
import { APP_RELAY_META } from "@/lib/docs/apps/sandbox-relay";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Toolscope", template: "%s · Toolscope" },
  description: "Playground and documentation for MCP tools.",
};

export default async function RootLayout({ children }: { children: React.ReactNode }) {
  // The request guard (proxy.ts) puts a fresh CSP nonce on every page request; reading it also makes every page
  // render per request, which nonces need.
  const nonce = (await headers()).get("x-nonce") ?? undefined;
  // Where MCP App views run: the relay on the sandbox origin when one is configured (read by the app host).
  const sandbox = config().sandboxOrigin;
  return (
    <html lang="en" suppressHydrationWarning>
      <head>
        <script nonce={nonce} dangerouslySetInnerHTML={{ __html: THEME_INIT_SCRIPT }} />
        {sandbox && <meta name={APP_RELAY_META} content={sandbox} />}
      </head>
      <body className="min-h-screen">
        <a
          href="#main"
          className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2 dark:focus:bg-zinc-900"
        >
          Skip to content
        </a>
        <header className="border-b border-zinc-200 dark:border-zinc-800">
          {/* At phone widths the wordmark goes to screen readers only and the gaps narrow: at 360 px the row was 393 px wide. */}
          <nav className="mx-auto flex max-w-7xl items-center gap-2 px-3 py-2.5 sm:gap-4 sm:px-4" aria-label="Main">
            <Link href="/" className="flex items-center gap-2 font-semibold tracking-tight">
              <span aria-hidden className="grid h-6 w-6 place-items-center rounded-md bg-accent-600 text-xs font-bold text-white">
                T
              </span>
              <span className="max-[400px]:sr-only">Toolscope</span>
            </Link>
            <Link
              href="/docs?server=builtin:demo"
              className="whitespace-nowrap text-sm text-zinc-600 hover:text-zinc-900 dark:text-zinc-400 dark:hover:text-zinc-100"
            >
              Demo docs
            </Link>
            <PlaygroundLink className="whitespace-nowrap text-sm text-zinc-600 hover:text-zinc-900 dark:text-zinc-400 dark:hover:text-zinc-100" />
            <span className="ml-auto" />
            <ThemeToggle />
          </nav>
        </header>
        <main id="main">{children}</main>
      </body>
    </html>
  );
}
