/**
 * Reading a collection file: JSON syntax (jsonc-parser, comments refused), then the format's JSON Schema (lib/schema's
 * ajv), then what a schema cannot say (unique call names, patterns that compile, schemas that compile). Each problem
 * is placed at a line and column of the file through its JSON pointer, so `toolscope test` can print `file:3:17: …`
 * and the playground can underline it. Variables no earlier call captures are warnings: the run reports them too.
 */
import { getNodeValue, parseTree, printParseErrorCode, type ParseError } from "jsonc-parser";
import { buildPointer } from "../json/pointer.ts";
import { isObject } from "../json/guards.ts";
import { compileSchema, validateAgainst } from "../schema/validate.ts";
import { SYNTAX_MESSAGES } from "../editor/request-diagnostics.ts";
import { resolvePointer, nodeRange, type RangeMode } from "../editor/pointer-range.ts";
import { COLLECTION_SCHEMA } from "./collection-schema.ts";
import { COLLECTION_FORMAT, type Collection } from "./format.ts";
import { placeholders } from "./substitute.ts";

export interface CollectionProblem {
  /** 1-based. */
  line: number;
  /** 1-based, in UTF-16 code units as editors count them. */
  column: number;
  /** Where in the document, as a JSON pointer ("" for a syntax error). */
  pointer: string;
  message: string;
}

export type ParsedCollection =
  { ok: true; collection: Collection; warnings: CollectionProblem[] } | { ok: false; problems: CollectionProblem[] };

/** Line and column of each offset of `text`. */
function locator(text: string): (offset: number) => { line: number; column: number } {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  return (offset) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - starts[lo] + 1 };
  };
}

/** `file:line:column: message`, the form compilers and editors read. */
export function formatProblem(file: string, p: CollectionProblem): string {
  return `${file}:${p.line}:${p.column}: ${p.message}`;
}

export function parseCollection(text: string): ParsedCollection {
  const at = locator(text);
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  if (errors.length || !root) {
    const e = errors[0];
    const name = e ? printParseErrorCode(e.error) : "ValueExpected";
    const message = `not JSON: ${(SYNTAX_MESSAGES[name] ?? name).replace(/^./, (c) => c.toLowerCase())}`;
    return { ok: false, problems: [{ ...at(e?.offset ?? 0), pointer: "", message }] };
  }
  const place = (pointer: string, message: string, mode: RangeMode = "value"): CollectionProblem => {
    const { node, exact } = resolvePointer(root, pointer);
    return { ...at(nodeRange(node, exact ? mode : "container").offset), pointer, message };
  };
  const data: unknown = getNodeValue(root);

  if (isObject(data) && typeof data.format === "string" && data.format !== COLLECTION_FORMAT)
    return {
      ok: false,
      problems: [place("/format", `format ${JSON.stringify(data.format)} is not one this version reads (${COLLECTION_FORMAT})`)],
    };
  const verdict = validateAgainst(COLLECTION_SCHEMA, data);
  if (!verdict.ok) {
    const problems = verdict.diagnostics.map((d) =>
      place(d.pointer, `${d.pointer || "(root)"}: ${d.message}`, d.onKey ? "key" : d.keyword === "required" ? "container" : "value"),
    );
    if (verdict.schemaError) problems.push({ line: 1, column: 1, pointer: "", message: verdict.schemaError });
    return { ok: false, problems: sortProblems(problems) };
  }

  const collection = data as unknown as Collection;
  const problems: CollectionProblem[] = [];
  const warnings: CollectionProblem[] = [];
  const seen = new Set<string>();
  const known = new Set(Object.keys(collection.environment?.variables ?? {}));
  collection.calls.forEach((call, i) => {
    const at = (...path: (string | number)[]) => buildPointer(["calls", i, ...path]);
    if (seen.has(call.name))
      problems.push(place(at("name"), `a second call named ${JSON.stringify(call.name)}: call names must be unique`));
    seen.add(call.name);
    call.expect.forEach((e, j) => {
      if (e.kind === "matches" || e.kind === "text-matches") {
        try {
          new RegExp(e.pattern, e.flags);
        } catch (err) {
          problems.push(place(at("expect", j, "pattern"), `not a valid regular expression: ${(err as Error).message}`));
        }
      }
      if (e.kind === "schema") {
        const compiled = compileSchema(e.schema);
        if ("error" in compiled) problems.push(place(at("expect", j, "schema"), compiled.error));
      }
    });
    const used = placeholders([call.request, call.answers ?? {}, call.expect]);
    for (const name of used.filter((n) => !known.has(n)))
      warnings.push(place(at("request"), `{{${name}}} is not set by the environment or by the capture of an earlier call`));
    for (const name of Object.keys(call.capture ?? {})) known.add(name);
  });
  if (problems.length) return { ok: false, problems: sortProblems(problems) };
  return { ok: true, collection, warnings };
}

function sortProblems(problems: CollectionProblem[]): CollectionProblem[] {
  return problems.sort((a, b) => a.line - b.line || a.column - b.column);
}
