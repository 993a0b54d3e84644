import type { Tool } from "../mcp/contract.ts";
import { requestTemplate } from "../editor/templates.ts";

/** The request the editor opens with: a tools/call for the chosen tool (example arguments from its schema), else tools/list. */
export function initialRequestText(tools: Tool[], toolName?: string): string {
  const tool = toolName ? tools.find((t) => t.name === toolName) : undefined;
  return tool ? requestTemplate("tools/call", { tool }) : requestTemplate("tools/list");
}
