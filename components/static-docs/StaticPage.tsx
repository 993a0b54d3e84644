import type { ReactNode } from "react";
import { ThemeToggle } from "@/components/layout/ThemeToggle";

/** What every page of a static site carries besides its content (the CLI computes the policy from the scripts). */
export interface StaticAssets {
  /** The stylesheet's file, relative to the page. */
  cssFile: string;
  /** The Content-Security-Policy: no script but the page's own (by hash), nothing from the network. */
  csp: string;
  /** The theme script (inline, before paint) and the search script (the sidebar's filter; the index's search). */
  themeScript: string;
  searchScript: string;
}

/**
 * One page of a static docs site (`toolscope docs`): the docs views in a shell like the web app's, a theme switch,
 * and a footer saying where the definitions came from. No Toolscope behind it: every link is relative.
 */
export function StaticPage({
  title,
  serverName,
  assets,
  search,
  footer,
  children,
}: {
  title: string;
  serverName: string;
  assets: StaticAssets;
  /** The index's search entries, as JSON (parsed by the search script, never run). */
  search?: string;
  footer: string;
  children: ReactNode;
}) {
  return (
    <html lang="en">
      {/* A file of its own, not a Next.js page: next/head has no place here. */}
      {/* eslint-disable-next-line @next/next/no-head-element */}
      <head>
        <meta charSet="utf-8" />
        <meta httpEquiv="Content-Security-Policy" content={assets.csp} />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="referrer" content="no-referrer" />
        <title>{title}</title>
        <link rel="stylesheet" href={assets.cssFile} />
        <script dangerouslySetInnerHTML={{ __html: assets.themeScript }} />
      </head>
      <body className="min-h-screen">
        <header className="border-b border-zinc-200 dark:border-zinc-800">
          <nav className="mx-auto flex max-w-7xl items-center gap-2 px-3 py-2.5 sm:gap-4 sm:px-4" aria-label="Main">
            <a href="index.html" className="flex min-w-0 items-center gap-2 font-semibold tracking-tight">
              <span aria-hidden className="grid h-6 w-6 shrink-0 place-items-center rounded-md bg-accent-600 text-xs font-bold text-white">
                T
              </span>
              <span className="truncate">{serverName}</span>
            </a>
            <span className="ml-auto" />
            {/* The web app's switch; here the site's theme script gives it its click (no React runs). */}
            <ThemeToggle />
          </nav>
        </header>
        <main id="main">{children}</main>
        <footer className="mx-auto max-w-7xl px-4 py-6 text-xs text-zinc-500" data-testid="static-footer">
          {footer}
        </footer>
        {search !== undefined && <script type="application/json" id="toolscope-search-data" dangerouslySetInnerHTML={{ __html: search }} />}
        <script dangerouslySetInnerHTML={{ __html: assets.searchScript }} />
      </body>
    </html>
  );
}
