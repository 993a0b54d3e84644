import type { Tool } from "../mcp/contract.ts";
import { exampleArgs } from "../docs/example-args.ts";

/** The request the editor opens with: a tools/call for the chosen tool (example arguments from its schema), else tools/list. */
export function initialRequestText(tools: Tool[], toolName?: string): string {
  const tool = toolName ? tools.find((t) => t.name === toolName) : undefined;
  const message = tool
    ? { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: tool.name, arguments: exampleArgs(tool.inputSchema) } }
    : { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} };
  return JSON.stringify(message, null, 2);
}
