/**
 * The `params.arguments` of the editor's request, for the form beside it: read from the text (a `tools/call` names a
 * tool, a `prompts/get` a prompt) and written back by editing only that member of the text, so the rest of the
 * message (key order, `id`, `_meta`, the user's layout) stays as typed. The written part is laid out with 2-space
 * indentation, as "Write into the request" in the send preview does. Never throws, never drops the text: when there
 * is no place for arguments the result says why.
 */
import { applyEdits, modify } from "jsonc-parser";
import { isObject } from "../json/guards.ts";
import { findUnsafeIntegers } from "../mcp/safe-integers.ts";

/** The methods whose `params.arguments` a form fills. */
export type ArgumentsMethod = "tools/call" | "prompts/get";

export type ArgumentsRead =
  | {
      ok: true;
      method: ArgumentsMethod;
      /** The tool or prompt named by `params.name` (undefined when it is missing or not a string). */
      name: string | undefined;
      /** `params.arguments`, undefined when absent. */
      arguments: Record<string, unknown> | undefined;
    }
  | {
      ok: false;
      reason: "invalid-json" | "not-an-object" | "other-method" | "bad-params" | "bad-arguments" | "unsafe-integers";
      message: string;
    };

export type ArgumentsWrite = { ok: true; text: string } | { ok: false; message: string };

const FORMATTING = { insertSpaces: true, tabSize: 2, eol: "\n" };

/** Read `params.arguments` of a `tools/call` or `prompts/get` request. */
export function readRequestArguments(text: string): ArgumentsRead {
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch {
    return { ok: false, reason: "invalid-json", message: "The request is not valid JSON; fix it in the editor and the form follows." };
  }
  if (!isObject(message)) return { ok: false, reason: "not-an-object", message: "The request must be one JSON object to have arguments." };
  const method = message.method;
  if (method !== "tools/call" && method !== "prompts/get")
    return {
      ok: false,
      reason: "other-method",
      message: `A form fills the arguments of tools/call and prompts/get; this request is ${typeof method === "string" ? method : "without a method"}.`,
    };
  const params = message.params;
  if (params !== undefined && !isObject(params))
    return { ok: false, reason: "bad-params", message: "params must be an object; fix it in the editor to use the form." };
  const args = params?.arguments;
  if (args !== undefined && !isObject(args))
    return { ok: false, reason: "bad-arguments", message: "params.arguments must be an object; fix it in the editor to use the form." };
  // JSON.parse has rounded them: the form would show (and write back) other numbers than the ones written.
  const unsafe = findUnsafeIntegers(text).filter((u) => u.pointer === "/params/arguments" || u.pointer.startsWith("/params/arguments/"));
  if (unsafe.length > 0)
    return {
      ok: false,
      reason: "unsafe-integers",
      message: `The arguments hold integers beyond ±2^53 − 1 (${unsafe.map((u) => u.pointer.slice("/params/arguments".length)).join(", ")}), which a form cannot keep exact; edit them in the editor.`,
    };
  return { ok: true, method, name: typeof params?.name === "string" ? params.name : undefined, arguments: args };
}

/** The request text with `params.arguments` replaced by `args` (params created when absent); the rest untouched. */
export function writeRequestArguments(text: string, args: Record<string, unknown>): ArgumentsWrite {
  const read = readRequestArguments(text);
  // Arguments that are not an object are replaced (the user asked for it); anything else stays for the user to fix.
  if (!read.ok && read.reason !== "bad-arguments") return { ok: false, message: read.message };
  let next: string;
  try {
    next = applyEdits(text, modify(text, ["params", "arguments"], args, { formattingOptions: FORMATTING }));
  } catch (err) {
    return { ok: false, message: `The arguments could not be written into the request: ${(err as Error).message}` };
  }
  return { ok: true, text: next };
}
