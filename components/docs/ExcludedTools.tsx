import type { ExcludedTool } from "@/lib/mcp/contract";

/** Tools excluded from calling (invalid x-mcp-header, or a schema over Toolscope's limits), shown with the reason. Props: `excluded`. */
export function ExcludedTools({ excluded }: { excluded: ExcludedTool[] }) {
  return (
    <section className="mt-8" aria-labelledby="excluded-heading" data-testid="excluded-tools">
      <h2 id="excluded-heading" className="text-xl font-semibold">
        Excluded tools ({excluded.length})
      </h2>
      <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
        These cannot be called through Toolscope: clients must drop a tool whose x-mcp-header declarations break the spec&apos;s rules, and
        Toolscope does not read a schema over its size or depth limits (it could stall the page).
      </p>
      <ul className="mt-3 space-y-2">
        {excluded.map(({ tool, reason }) => (
          <li key={tool.name} className="rounded-md border border-amber-300 p-3 text-sm dark:border-amber-800">
            <code className="font-semibold">{tool.name}</code>
            <p className="mt-1 text-amber-900 dark:text-amber-300">{reason}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}
