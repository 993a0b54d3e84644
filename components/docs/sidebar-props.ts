import type { ToolsResponse } from "@/lib/mcp/contract";
import type { DocsLinks } from "@/lib/docs/links";
import { displayName } from "@/lib/docs/display-name";
import { toolListItem } from "@/lib/docs/tool-rows";
import type { ToolSidebarProps } from "./ToolSidebar";

/** The sidebar's props for a tool list: plain data only (it is a client component). */
export function sidebarProps(list: Pick<ToolsResponse, "tools" | "excluded">, links: DocsLinks, current?: string): ToolSidebarProps {
  return {
    items: list.tools.map(toolListItem),
    excluded: list.excluded.map(({ tool }) => ({ name: tool.name, display: displayName(tool) })),
    links: links.data,
    ...(current === undefined ? {} : { current }),
  };
}
