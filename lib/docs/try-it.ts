import { validateAgainst } from "../schema/validate.ts";

/** What Try it found wrong with the arguments, as lines that say what to change; empty when Send may go. */
export type ArgsCheck = { ok: true; args: Record<string, unknown> } | { ok: false; problems: string[] };

/**
 * Fields of the form that hold text which is not a value yet ("1.", broken JSON), by JSON pointer: Send waits for
 * them rather than sending what the form last understood.
 */
export function pendingProblems(pending: ReadonlyMap<string, string>): string[] {
  return [...pending].map(([pointer, problem]) => `${pointer ? `${pointer.slice(1)}: ` : ""}${problem}`);
}

/**
 * Check the arguments against the tool's inputSchema, the way the playground's editor does: each problem names the
 * argument (a JSON pointer) and what is wrong. A schema that does not compile blocks nothing: the server decides.
 */
export function checkArgs(inputSchema: unknown, args: Record<string, unknown>): ArgsCheck {
  const verdict = validateAgainst(inputSchema, args);
  if (verdict.ok || verdict.schemaError) return { ok: true, args };
  return { ok: false, problems: verdict.diagnostics.map((d) => `${d.pointer ? `${d.pointer.slice(1)}: ` : ""}${d.message}`) };
}

/** The tools/call Try it sends. */
export function toolCallMessage(name: string, args: Record<string, unknown>, id: number): Record<string, unknown> {
  return { jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } };
}
