/** How a JSON-RPC response reads to a person: the server's answer, in one of these kinds. */
import { isObject } from "../json/guards.ts";
export type ResponseKind =
  | { kind: "result"; resultType: string }
  | { kind: "tool-error" }
  | { kind: "input-required"; inputRequests: Record<string, unknown>; requestState?: string }
  | { kind: "task" }
  | { kind: "rpc-error"; code: number; errorKind: RpcErrorKind; title: string; explanation: string; data?: unknown }
  | { kind: "invalid"; reason: string };

export type RpcErrorKind =
  | "parse-error"
  | "invalid-request"
  | "method-not-found"
  | "unknown-tool"
  | "invalid-params"
  | "internal-error"
  | "header-mismatch"
  | "missing-capability"
  | "unsupported-version"
  | "server-defined"
  | "other";

interface ErrorInfo {
  errorKind: RpcErrorKind;
  title: string;
  explanation: string;
}

const ERRORS: Record<number, ErrorInfo> = {
  [-32700]: { errorKind: "parse-error", title: "Parse error", explanation: "The server could not parse the JSON it received." },
  [-32600]: {
    errorKind: "invalid-request",
    title: "Invalid request",
    explanation: "The message is not a valid JSON-RPC request for this server.",
  },
  [-32601]: {
    errorKind: "method-not-found",
    title: "Method not found",
    explanation: "The server does not implement this method, or not in the negotiated protocol version.",
  },
  [-32602]: { errorKind: "invalid-params", title: "Invalid params", explanation: "The params do not match what the method expects." },
  [-32603]: { errorKind: "internal-error", title: "Internal error", explanation: "The server failed while handling the request." },
  [-32020]: {
    errorKind: "header-mismatch",
    title: "Header mismatch",
    explanation: "The HTTP headers (Mcp-Method, Mcp-Name, Mcp-Param-*) do not match the body, or one is missing or malformed.",
  },
  [-32021]: {
    errorKind: "missing-capability",
    title: "Missing client capability",
    explanation: "The server needs a client capability this request did not declare in _meta.",
  },
  [-32022]: {
    errorKind: "unsupported-version",
    title: "Unsupported protocol version",
    explanation: "The server does not speak the requested protocol version; it lists the versions it supports.",
  },
};

const RESULT_TYPES = new Set(["complete", "input_required"]);
/** Result types an extension adds: `task` (the tasks extension, 2026-07-28), valid only where the request declared it. */
const EXTENSION_RESULT_TYPES = new Set(["task"]);

/** Classify a JSON-RPC response. A missing `resultType` means `complete` (legacy servers never send one). */
export function classifyResponse(response: Record<string, unknown>, method?: string): ResponseKind {
  if (isObject(response.error)) {
    const code = typeof response.error.code === "number" ? response.error.code : NaN;
    const message = typeof response.error.message === "string" ? response.error.message : "";
    let info = ERRORS[code];
    if (
      code === -32602 &&
      method === "tools/call" &&
      /unknown tool|not found|no such tool|does not exist|tool \S+ disabled/i.test(message)
    ) {
      info = {
        errorKind: "unknown-tool",
        title: "Unknown tool",
        explanation: "The server has no tool by this name. Check the name against tools/list.",
      };
    }
    if (!info) {
      info =
        code <= -32000 && code >= -32099
          ? {
              errorKind: "server-defined",
              title: `Error ${code}`,
              explanation: "A code in the range reserved for the MCP specification or the server.",
            }
          : {
              errorKind: "other",
              title: `Error ${Number.isNaN(code) ? "(no code)" : code}`,
              explanation: "An error code outside the JSON-RPC and MCP ranges.",
            };
    }
    return { kind: "rpc-error", code, ...info, ...(response.error.data !== undefined ? { data: response.error.data } : {}) };
  }
  if (!isObject(response.result)) return { kind: "invalid", reason: "The response has neither a result object nor an error." };
  const result = response.result;
  const resultType = result.resultType === undefined ? "complete" : result.resultType;
  if (resultType === "task") {
    // The tasks extension lets a server turn only a tools/call into a task (SEP-2663); anything else is invalid.
    return method === undefined || method === "tools/call"
      ? { kind: "task" }
      : {
          kind: "invalid",
          reason: `A task handle answered ${method}: only a tools/call may become a task, so a client must treat it as invalid.`,
        };
  }
  if (typeof resultType !== "string" || !RESULT_TYPES.has(resultType)) {
    return { kind: "invalid", reason: `Unknown resultType ${JSON.stringify(resultType)}: a client must treat it as an invalid response.` };
  }
  if (resultType === "input_required") {
    return {
      kind: "input-required",
      inputRequests: isObject(result.inputRequests) ? result.inputRequests : {},
      ...(typeof result.requestState === "string" ? { requestState: result.requestState } : {}),
    };
  }
  if (result.isError === true) return { kind: "tool-error" };
  return { kind: "result", resultType };
}

function describeType(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  return typeof v === "object" ? "an object" : `a ${typeof v}`;
}

/**
 * A protocol warning for a modern (2026-07-28) result whose `resultType` is not one the client knows: a value of the
 * wrong type, or a string outside the core set (`complete`, `input_required`; Toolscope advertises no extension that
 * adds one). The spec (basic/index.mdx §ResultType) says a client MUST treat an unrecognised `resultType` as invalid,
 * so the warning says that the result is not taken as the server's answer. Undefined for a legacy response (earlier
 * versions have no `resultType`), an error or no response, a known value, and an absent `resultType` (which clients
 * MUST read as `complete`, for servers of earlier versions).
 */
export function resultTypeWarning(
  response: Record<string, unknown> | null,
  era: "modern" | "legacy",
  request: { method?: unknown; tasksDeclared?: boolean } = {},
): string | undefined {
  if (era !== "modern" || !response || !isObject(response.result) || !("resultType" in response.result)) return undefined;
  const value = response.result.resultType;
  if (value === undefined) return undefined;
  if (typeof value === "string" && EXTENSION_RESULT_TYPES.has(value)) {
    if (request.method !== undefined && request.method !== "tools/call")
      return `The server answered ${String(request.method)} with a task handle: only a tools/call may become a task (SEP-2663), so a client MUST treat it as invalid.`;
    if (request.tasksDeclared) return undefined;
    return 'The server answered with a task handle (resultType "task"), but this request did not declare the tasks extension in its _meta: a server must not create a task then, and a client MUST treat the result as invalid.';
  }
  const known = [...RESULT_TYPES].map((t) => JSON.stringify(t)).join(" and ");
  const invalid = "a client MUST treat the result as invalid, so Toolscope does not take it as the server's answer";
  if (typeof value !== "string") {
    return `The result's resultType is ${describeType(value)} (${JSON.stringify(value)}), not a string: MCP 2026-07-28 defines ${known}, and ${invalid}.`;
  }
  if (RESULT_TYPES.has(value)) return undefined;
  const near = [...RESULT_TYPES].find((t) => t === value.trim().toLowerCase().replace(/[-\s]/g, "_"));
  const hint = near ? ` (values are exact: did the server mean ${JSON.stringify(near)}?)` : "";
  return `Unknown resultType ${JSON.stringify(value)}${hint}: MCP 2026-07-28 defines ${known} (extensions may add others only when the client advertises them: Toolscope advertises "task" on the playground's calls), and ${invalid}.`;
}
