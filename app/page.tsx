import Link from "next/link";
import { ConnectForm } from "@/components/home/ConnectForm";
import { StdioServers } from "@/components/home/StdioServers";
import type { StdioServersResponse } from "@/lib/mcp/contract";
import { config } from "@/lib/server/platform/config";
import { listStdioServers } from "@/lib/upstream";

// The local stdio servers are read from their config file as the page renders.
export const dynamic = "force-dynamic";

async function stdioServers(): Promise<StdioServersResponse | null> {
  try {
    return await listStdioServers(config());
  } catch {
    return null; // /api/stdio says what is misconfigured; the home page still opens
  }
}

export default async function Home() {
  const stdio = await stdioServers();
  return (
    <div className="mx-auto max-w-3xl px-4 py-10">
      <h1 className="text-3xl font-semibold tracking-tight">Explore any MCP server&apos;s tools</h1>
      <p className="mt-2 text-zinc-600 dark:text-zinc-400">
        Toolscope connects to Model Context Protocol servers of both eras (2026-07-28 and legacy), renders documentation from their tool
        definitions, and lets you send validated JSON-RPC calls and see every byte of the exchange.
      </p>
      <section className="mt-8 rounded-lg border border-accent-100 bg-accent-50 p-4 dark:border-zinc-800 dark:bg-zinc-900">
        <h2 className="font-medium">Start with the built-in demo</h2>
        <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
          An issue tracker served by this app at /api/demo/mcp, with an example of every feature the docs and editor render.
        </p>
        <div className="mt-3 flex flex-wrap gap-2">
          <Link
            href="/docs?server=builtin:demo"
            data-testid="open-demo"
            className="rounded-md bg-accent-600 px-4 py-2 text-sm font-medium text-white hover:bg-accent-700"
          >
            Browse the demo&apos;s docs
          </Link>
          <Link
            href="/playground?server=builtin:demo&tool=search_issues"
            className="rounded-md border border-zinc-300 px-4 py-2 text-sm font-medium hover:bg-white dark:border-zinc-700 dark:hover:bg-zinc-800"
          >
            Open it in the playground
          </Link>
        </div>
      </section>
      {/* Before the connect form: the recent servers under it appear after load (they live in this browser) and
          would push anything below them down. */}
      <StdioServers data={stdio} />
      <section className="mt-8">
        <h2 className="mb-3 font-medium">Connect to a server</h2>
        <ConnectForm />
      </section>
    </div>
  );
}
