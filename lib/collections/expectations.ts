/**
 * One expectation against one answer → pass or fail, with a message that names the expectation and shows what the
 * server actually sent (cut short), so a failed CI run reads without opening the answer.
 */
import { canonicalJson } from "../json/canonical.ts";
import { isObject } from "../json/guards.ts";
import { appendPointer, parsePointer } from "../json/pointer.ts";
import type { Tool } from "../mcp/contract.ts";
import { validateAgainst } from "../schema/validate.ts";
import type { Expectation } from "./format.ts";
import { preview, valueAt, withoutPointer } from "./pointer-value.ts";

export interface ExpectationResult {
  kind: Expectation["kind"] | "capture";
  /** The expectation in a few words ("equals /result/structuredContent/status"). */
  label: string;
  pass: boolean;
  /** Why it failed, or what held. */
  message: string;
}

/** What the expectations of one call look at. */
export interface CallOutcome {
  request: Record<string, unknown>;
  /** The final JSON-RPC response (after any MRTR rounds); null when none came. */
  response: Record<string, unknown> | null;
  durationMs: number;
  /** The server's tools (tools/list, once per run), or why they could not be listed. */
  tools?: readonly Tool[] | { error: string };
}

const STRUCTURED = "/result/structuredContent";

/** The expectation in a few words, for reports. */
export function describeExpectation(e: Expectation): string {
  switch (e.kind) {
    case "no-error":
      return "no JSON-RPC error";
    case "error":
      return e.code === undefined ? "a JSON-RPC error" : `JSON-RPC error ${e.code}`;
    case "is-error":
      return `isError ${e.value}`;
    case "output-schema":
      return "structuredContent valid against the tool's outputSchema";
    case "schema":
      return `${e.pointer ?? STRUCTURED} valid against the expectation's schema`;
    case "equals":
      return `${e.pointer} equals ${preview(e.value, 60)}`;
    case "matches":
      return `${e.pointer} matches /${e.pattern}/${e.flags ?? ""}`;
    case "present":
      return `${e.pointer} present`;
    case "absent":
      return `${e.pointer} absent`;
    case "text-contains":
      return `text contains ${preview(e.text, 60)}`;
    case "text-matches":
      return `text matches /${e.pattern}/${e.flags ?? ""}`;
    case "tool-listed":
      return `tool ${e.tool} ${e.listed === false ? "not " : ""}in tools/list`;
    case "latency":
      return `latency ≤ ${e.maxMs} ms`;
    case "unchanged":
      return `${e.pointer ?? "/result"} unchanged${e.volatile?.length ? ` (volatile: ${e.volatile.join(", ")})` : ""}`;
  }
}

function result(e: Expectation, pass: boolean, message: string): ExpectationResult {
  return { kind: e.kind, label: describeExpectation(e), pass, message };
}

/** What the server answered, in a phrase: its error, or its result. */
function answered(response: Record<string, unknown> | null): string {
  if (!response) return "no response";
  if (isObject(response.error)) return `error ${preview(response.error.code)}: ${preview(response.error.message, 100)}`;
  return `result ${preview(response.result)}`;
}

/**
 * Why nothing is at `pointer`: the deepest part of it the answer has, and what is there instead (its members, or its
 * value), so a renamed field reads at once (`…/assignee has squad`); an error answer says so.
 */
function missing(response: Record<string, unknown> | null, pointer: string): string {
  if (!response || isObject(response.error)) return `nothing at ${pointer} (${answered(response)})`;
  const tokens = parsePointer(pointer) ?? [];
  let found = "";
  let value: unknown = response;
  for (let i = tokens.length - 1; i >= 0; i--) {
    const prefix = tokens.slice(0, i).reduce((p, t) => appendPointer(p, t), "");
    const at = valueAt(response, prefix);
    if (at.found) {
      found = prefix;
      value = at.value;
      break;
    }
  }
  if (typeof value === "string") {
    try {
      value = JSON.parse(value);
    } catch {
      // plain text: shown as it is
    }
  }
  const where = found || "the response";
  if (isObject(value)) {
    const keys = Object.keys(value);
    const shown = keys.slice(0, 12).join(", ") + (keys.length > 12 ? `, … (${keys.length})` : "");
    return `nothing at ${pointer}: ${where} has ${keys.length ? shown : "no members"}`;
  }
  if (Array.isArray(value)) return `nothing at ${pointer}: ${where} is an array of ${value.length}`;
  return `nothing at ${pointer}: ${where} is ${preview(value, 100)}`;
}

function textBlocks(response: Record<string, unknown> | null): string[] {
  const content = isObject(response?.result) ? response.result.content : undefined;
  return Array.isArray(content)
    ? content.filter((b) => isObject(b) && typeof b.text === "string").map((b) => (b as { text: string }).text)
    : [];
}

function schemaProblems(schema: unknown, value: unknown): string | undefined {
  const verdict = validateAgainst(schema, value);
  if (verdict.schemaError) return verdict.schemaError;
  if (verdict.ok) return undefined;
  return verdict.diagnostics
    .slice(0, 3)
    .map((d) => `${d.pointer || "(root)"}: ${d.message}`)
    .join("; ");
}

function regex(pattern: string, flags: string | undefined): RegExp | string {
  try {
    return new RegExp(pattern, flags);
  } catch (err) {
    return `the pattern is not a valid regular expression (${(err as Error).message})`;
  }
}

/** Deep equality as JSON sees it (key order aside). */
export function sameJson(a: unknown, b: unknown): boolean {
  return canonicalJson(a) === canonicalJson(b);
}

function toolsOf(outcome: CallOutcome): readonly Tool[] | string {
  if (!outcome.tools) return "the tools were not listed";
  return "error" in outcome.tools ? `tools/list failed: ${outcome.tools.error}` : outcome.tools;
}

/** Evaluate `e` against the call's outcome. */
export function evaluateExpectation(e: Expectation, outcome: CallOutcome): ExpectationResult {
  const { response } = outcome;
  const error = isObject(response?.error) ? response.error : undefined;
  const res = isObject(response?.result) ? response.result : undefined;
  switch (e.kind) {
    case "no-error":
      if (!response) return result(e, false, "no response came");
      return error ? result(e, false, `the server answered ${answered(response)}`) : result(e, true, "no error");
    case "error":
      if (!error) return result(e, false, `the server answered ${answered(response)}`);
      if (e.code !== undefined && error.code !== e.code)
        return result(e, false, `the error's code is ${preview(error.code)}: ${preview(error.message, 100)}`);
      return result(e, true, `error ${preview(error.code)}`);
    case "is-error": {
      if (!res) return result(e, false, `the server answered ${answered(response)}`);
      const actual = res.isError === true;
      return actual === e.value
        ? result(e, true, `isError ${actual}`)
        : result(e, false, `isError is ${actual}${textBlocks(response).length ? `; text: ${preview(textBlocks(response)[0], 100)}` : ""}`);
    }
    case "output-schema": {
      const name = isObject(outcome.request.params) ? outcome.request.params.name : undefined;
      if (outcome.request.method !== "tools/call" || typeof name !== "string") return result(e, false, "the call is not a tools/call");
      const tools = toolsOf(outcome);
      if (typeof tools === "string") return result(e, false, tools);
      const tool = tools.find((t) => t.name === name);
      if (!tool) return result(e, false, `tools/list has no tool ${JSON.stringify(name)}`);
      if (!tool.outputSchema) return result(e, false, `the tool ${name} declares no outputSchema`);
      const at = valueAt(response, STRUCTURED);
      if (!at.found) return result(e, false, `the result has no structuredContent (${answered(response)})`);
      const problems = schemaProblems(tool.outputSchema, at.value);
      return problems ? result(e, false, `structuredContent is not valid: ${problems}`) : result(e, true, "valid");
    }
    case "schema": {
      const pointer = e.pointer ?? STRUCTURED;
      const at = valueAt(response, pointer);
      if (!at.found) return result(e, false, missing(response, pointer));
      const problems = schemaProblems(e.schema, at.value);
      return problems ? result(e, false, `${preview(at.value)} is not valid: ${problems}`) : result(e, true, "valid");
    }
    case "equals": {
      const at = valueAt(response, e.pointer);
      if (!at.found) return result(e, false, missing(response, e.pointer));
      return sameJson(at.value, e.value)
        ? result(e, true, `is ${preview(at.value)}`)
        : result(e, false, `expected ${preview(e.value)}, got ${preview(at.value)}`);
    }
    case "matches": {
      const at = valueAt(response, e.pointer);
      if (!at.found) return result(e, false, missing(response, e.pointer));
      const re = regex(e.pattern, e.flags);
      if (typeof re === "string") return result(e, false, re);
      if (typeof at.value !== "string") return result(e, false, `not a string: ${preview(at.value)}`);
      return re.test(at.value) ? result(e, true, `${preview(at.value)} matches`) : result(e, false, `${preview(at.value)} does not match`);
    }
    case "present": {
      const at = valueAt(response, e.pointer);
      return at.found ? result(e, true, `is ${preview(at.value)}`) : result(e, false, missing(response, e.pointer));
    }
    case "absent": {
      const at = valueAt(response, e.pointer);
      return at.found ? result(e, false, `present: ${preview(at.value)}`) : result(e, true, "absent");
    }
    case "text-contains":
    case "text-matches": {
      const texts = textBlocks(response);
      if (!texts.length) return result(e, false, `the answer has no text content (${answered(response)})`);
      const re = e.kind === "text-matches" ? regex(e.pattern, e.flags) : undefined;
      if (typeof re === "string") return result(e, false, re);
      const hit = texts.find((t) => (re ? re.test(t) : t.includes((e as { text: string }).text)));
      return hit !== undefined
        ? result(e, true, `found in ${preview(hit, 60)}`)
        : result(e, false, `not found in ${texts.length === 1 ? "the text" : `${texts.length} text blocks`}: ${preview(texts[0])}`);
    }
    case "tool-listed": {
      const tools = toolsOf(outcome);
      if (typeof tools === "string") return result(e, false, tools);
      const listed = tools.some((t) => t.name === e.tool);
      const want = e.listed !== false;
      if (listed === want) return result(e, true, listed ? "listed" : "not listed");
      const names = tools.map((t) => t.name);
      return result(e, false, listed ? "it is listed" : `it is not listed (tools: ${preview(names, 160)})`);
    }
    case "latency":
      return outcome.durationMs <= e.maxMs
        ? result(e, true, `${Math.round(outcome.durationMs)} ms`)
        : result(e, false, `took ${Math.round(outcome.durationMs)} ms, over the ${e.maxMs} ms budget`);
    case "unchanged": {
      const pointer = e.pointer ?? "/result";
      const at = valueAt(response, pointer);
      if (!at.found) return result(e, false, missing(response, pointer));
      let actual = at.value;
      let recorded = e.recorded;
      for (const v of e.volatile ?? []) {
        actual = withoutPointer(actual, v);
        recorded = withoutPointer(recorded, v);
      }
      if (sameJson(actual, recorded)) return result(e, true, "unchanged");
      const where = firstDifference(recorded, actual, "");
      return result(e, false, `changed at ${where.pointer || "(root)"}: recorded ${preview(where.recorded)}, now ${preview(where.actual)}`);
    }
  }
}

/** The first place two values differ, for the message of `unchanged`. */
function firstDifference(recorded: unknown, actual: unknown, pointer: string): { pointer: string; recorded: unknown; actual: unknown } {
  if (isObject(recorded) && isObject(actual)) {
    for (const key of new Set([...Object.keys(recorded), ...Object.keys(actual)])) {
      if (!sameJson(recorded[key], actual[key])) return firstDifference(recorded[key], actual[key], appendPointer(pointer, key));
    }
  }
  if (Array.isArray(recorded) && Array.isArray(actual) && recorded.length === actual.length) {
    const i = recorded.findIndex((item, j) => !sameJson(item, actual[j]));
    if (i >= 0) return firstDifference(recorded[i], actual[i], appendPointer(pointer, i));
  }
  return { pointer, recorded, actual };
}
