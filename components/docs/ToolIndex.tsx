import Link from "next/link";
import type { Tool } from "@/lib/mcp/contract";
import type { DocsLinks } from "@/lib/docs/links";
import { displayName, firstLine } from "@/lib/docs/display-name";
import { effectiveHints } from "@/lib/docs/annotations";
import { Badge } from "@/components/ui/Badge";
import { ToolIcon } from "./ToolIcon";

/** Props: `tools` to list; `links` where tool names lead. */
export function ToolIndex({ tools, links }: { tools: Tool[]; links: DocsLinks }) {
  return (
    <ul className="divide-y divide-zinc-200 dark:divide-zinc-800" data-testid="tool-index">
      {tools.map((tool) => {
        const [readOnly, destructive, idempotent] = effectiveHints(tool);
        const name = displayName(tool);
        return (
          <li key={tool.name} className="py-3" data-testid={`tool-row-${tool.name}`}>
            <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
              <ToolIcon icons={tool.icons} name={name} size={20} />
              <Link href={links.toolPage(tool.name)} className="font-medium text-accent-700 hover:underline dark:text-accent-100">
                {name}
              </Link>
              {name !== tool.name && <code className="text-xs text-zinc-500">{tool.name}</code>}
              <span className="flex flex-wrap gap-1">
                {readOnly.value ? (
                  <Badge tone="success" variant={readOnly.source === "set" ? "solid" : "dashed"}>read-only</Badge>
                ) : destructive.value ? (
                  <Badge tone="danger" variant={destructive.source === "set" ? "solid" : "dashed"} title={destructive.source === "default" ? "Not stated by the server: the spec default is destructive" : undefined}>
                    destructive
                  </Badge>
                ) : (
                  <Badge tone="warning" variant="solid">modifies</Badge>
                )}
                {!readOnly.value && idempotent.value && <Badge tone="info" variant="solid">idempotent</Badge>}
              </span>
            </div>
            {tool.description && <p className="mt-0.5 line-clamp-2 text-sm text-zinc-600 dark:text-zinc-400">{firstLine(tool.description)}</p>}
          </li>
        );
      })}
    </ul>
  );
}
