import "server-only";
import type { BuiltinTarget } from "@/lib/upstream";
import { demoHandler } from "./demo-handler.ts";

/** The servers that ship with Toolscope, reached in-process as `builtin:<id>`: the demo. */
export const BUILTIN_TARGETS: Readonly<Record<string, BuiltinTarget>> = {
  demo: { path: "/api/demo/mcp", handler: demoHandler },
};
