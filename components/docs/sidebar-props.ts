import type { ToolsResponse } from "@/lib/mcp/contract";
import type { DocsLinks } from "@/lib/docs/links";
import { displayName } from "@/lib/docs/display-name";
import { toolListItem, type ToolListItem } from "@/lib/docs/tool-rows";
import type { ToolSidebarProps } from "./ToolSidebar";

/**
 * The sidebar's props for a tool list: plain data only (it is a client component). `items`: the server page passes
 * the array its index gets too, so the page's payload carries the tools once.
 */
export function sidebarProps(
  list: Pick<ToolsResponse, "tools" | "excluded">,
  links: DocsLinks,
  current?: string,
  items: ToolListItem[] = list.tools.map(toolListItem),
): ToolSidebarProps {
  return {
    items,
    excluded: list.excluded.map(({ tool }) => ({ name: tool.name, display: displayName(tool) })),
    links: links.data,
    ...(current === undefined ? {} : { current }),
  };
}
