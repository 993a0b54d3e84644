import type { Metadata } from "next";
import { PlaygroundShell } from "@/components/playground/PlaygroundShell";

export const metadata: Metadata = { title: "Playground" };

/**
 * Query: `server` (URL or builtin:demo) opens it in a tab, `tool` prefills a tools/call; no query restores the tabs kept
 * in this browser (the demo the first time); a `#v1.…` fragment is a share link (a new tab). Nothing is sent until the
 * user presses Send.
 */
export default async function PlaygroundPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const q = await searchParams;
  const server = typeof q.server === "string" && q.server ? q.server : undefined;
  const tool = typeof q.tool === "string" && q.tool ? q.tool : undefined;
  return (
    <div className="mx-auto max-w-7xl px-4 py-4">
      <h1 className="sr-only">Playground</h1>
      <PlaygroundShell server={server} tool={tool} />
    </div>
  );
}
