import type { Metadata } from "next";
import { PlaygroundShell } from "@/components/playground/PlaygroundShell";

export const metadata: Metadata = { title: "Playground" };

/** Query: `server` (URL or builtin:demo, default the demo) and `tool` (prefill a tools/call); a `#v1.…` fragment is a share link. Nothing is sent until the user presses Send. */
export default async function PlaygroundPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const q = await searchParams;
  const server = typeof q.server === "string" && q.server ? q.server : "builtin:demo";
  const tool = typeof q.tool === "string" ? q.tool : undefined;
  return (
    <div className="mx-auto max-w-7xl px-4 py-4">
      <h1 className="sr-only">Playground</h1>
      <PlaygroundShell server={server} tool={tool} />
    </div>
  );
}
