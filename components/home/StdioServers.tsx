import Link from "next/link";
import type { StdioServersResponse } from "@/lib/mcp/contract";

/**
 * The stdio servers of the local config file, each a link to the playground. Renders nothing in hosted mode. Given by
 * the page as it renders (issue 26: fetched after load, the section pushed the page down as it appeared).
 */
export function StdioServers({ data }: { data: StdioServersResponse | null }) {
  if (!data?.enabled) return null;
  return (
    <section className="mt-8" data-testid="stdio-servers">
      <h2 className="font-medium">Local stdio servers</h2>
      <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
        Launched on this machine from <code className="font-mono text-xs">{data.configPath}</code> (
        <code className="font-mono text-xs">TOOLSCOPE_STDIO_CONFIG</code>); their stderr is shown with each response.
      </p>
      {data.servers.length > 0 ? (
        <ul className="mt-3 divide-y divide-zinc-200 rounded-md border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800">
          {data.servers.map((s) => (
            <li key={s.name} className="flex items-baseline gap-3 px-3 py-2 text-sm">
              <Link
                href={`/playground?server=${encodeURIComponent(`stdio:${s.name}`)}`}
                className="font-medium text-accent-700 hover:underline dark:text-accent-400"
              >
                stdio:{s.name}
              </Link>
              <span className="font-mono text-xs text-zinc-500">
                {s.command} · {s.argCount} {s.argCount === 1 ? "argument" : "arguments"}
              </span>
            </li>
          ))}
        </ul>
      ) : null}
      {data.problem && <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-400">{data.problem}</p>}
    </section>
  );
}
