/**
 * JSON for the request editor, registered on the Monaco instance it is given: colours, brackets and auto-closing,
 * brace folding and formatting (jsonc-parser, the parser the diagnostics use too).
 *
 * Why not Monaco's own JSON language (monaco-editor/languages/features/json): in monaco-editor 0.57 its worker client
 * imports internal/common/workers.js, which imports all 73 editor contributions, so the playground would load every
 * contribution again (diff editor included) in a second chunk, whatever JsonEditor picked. What its worker gave us
 * was syntax markers, which diagnoseRequest reports already (the same parse the problems list shows), folding and
 * formatting, both done by jsonc-parser underneath and done here with it directly.
 *
 * Token names are those of Monaco's JSON language, so the built-in vs / vs-dark themes colour keys and values as before.
 */
import type * as Monaco from "monaco-editor/editor";
import { createScanner, format, type EditResult, type Range as JsonRange } from "jsonc-parser";

type MonacoApi = typeof Monaco;

/** jsonc-parser's `SyntaxKind` values used here (a const enum, which isolatedModules cannot read from a .d.ts). */
const OPEN_BRACE = 1;
const CLOSE_BRACE = 2;
const OPEN_BRACKET = 3;
const CLOSE_BRACKET = 4;
const EOF = 17;

export const JSON_LANGUAGE_ID = "json";

const TOKENS: Monaco.languages.IMonarchLanguage = {
  defaultToken: "",
  tokenizer: {
    root: [
      [/\s+/, ""],
      // A string followed by a colon is a key (same line: requests put the colon right after the key).
      [/"(?:[^"\\]|\\.)*"(?=\s*:)/, "string.key.json"],
      // Unterminated strings run to the end of the line, as JSON strings cannot span lines.
      [/"(?:[^"\\]|\\.)*"?/, "string.value.json"],
      [/-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?/, "number.json"],
      [/\b(?:true|false|null)\b/, "keyword.json"],
      [/[{}]/, "delimiter.bracket.json"],
      [/[[\]]/, "delimiter.array.json"],
      [/:/, "delimiter.colon.json"],
      [/,/, "delimiter.comma.json"],
      // Comments are errors in a request (the diagnostics say so), but still look like comments while they are there.
      [/\/\/.*$/, "comment.line.json"],
      [/\/\*/, "comment.block.json", "@comment"],
      [/[^\s{}[\]:,"/]+/, "invalid"],
      [/./, "invalid"],
    ],
    comment: [
      [/[^*]+/, "comment.block.json"],
      [/\*\//, "comment.block.json", "@pop"],
      [/\*/, "comment.block.json"],
    ],
  },
};

const CONFIGURATION: Monaco.languages.LanguageConfiguration = {
  // A number, or a run of anything but JSON punctuation: what double-click and Ctrl+D select.
  wordPattern: /(-?\d*\.\d\w*)|([^[{\]}:",\s]+)/g,
  brackets: [
    ["{", "}"],
    ["[", "]"],
  ],
  autoClosingPairs: [
    { open: "{", close: "}", notIn: ["string"] },
    { open: "[", close: "]", notIn: ["string"] },
    { open: '"', close: '"', notIn: ["string"] },
  ],
};

/** jsonc-parser's edits as Monaco's, offsets turned into positions on the model they were computed for. */
function toTextEdits(monaco: MonacoApi, model: Monaco.editor.ITextModel, edits: EditResult): Monaco.languages.TextEdit[] {
  return edits.map((e) => {
    const start = model.getPositionAt(e.offset);
    const end = model.getPositionAt(e.offset + e.length);
    return { range: new monaco.Range(start.lineNumber, start.column, end.lineNumber, end.column), text: e.content };
  });
}

function formatModel(
  monaco: MonacoApi,
  model: Monaco.editor.ITextModel,
  options: Monaco.languages.FormattingOptions,
  range?: JsonRange,
): Monaco.languages.TextEdit[] {
  const edits = format(model.getValue(), range, { tabSize: options.tabSize, insertSpaces: options.insertSpaces, eol: model.getEOL() });
  return toTextEdits(monaco, model, edits);
}

/** One range per brace or bracket pair spanning lines, ending above the closing line so that stays in view. */
function foldingRanges(model: Monaco.editor.ITextModel): Monaco.languages.FoldingRange[] {
  const scanner = createScanner(model.getValue(), false);
  const open: number[] = [];
  const ranges: Monaco.languages.FoldingRange[] = [];
  for (let token: number = scanner.scan(); token !== EOF; token = scanner.scan()) {
    if (token === OPEN_BRACE || token === OPEN_BRACKET) {
      open.push(scanner.getTokenStartLine() + 1);
    } else if (token === CLOSE_BRACE || token === CLOSE_BRACKET) {
      const start = open.pop();
      const end = scanner.getTokenStartLine(); // 0-based closing line = the 1-based line above it
      if (start !== undefined && end > start) ranges.push({ start, end });
    }
  }
  return ranges;
}

const registered = new WeakSet<object>();

/** Registers the language once per Monaco instance (module scope of JsonEditor calls it). */
export function registerJsonLanguage(monaco: MonacoApi): void {
  if (registered.has(monaco.languages)) return;
  registered.add(monaco.languages);
  monaco.languages.register({ id: JSON_LANGUAGE_ID, extensions: [".json"], aliases: ["JSON", "json"], mimetypes: ["application/json"] });
  monaco.languages.setMonarchTokensProvider(JSON_LANGUAGE_ID, TOKENS);
  monaco.languages.setLanguageConfiguration(JSON_LANGUAGE_ID, CONFIGURATION);
  monaco.languages.registerFoldingRangeProvider(JSON_LANGUAGE_ID, { provideFoldingRanges: foldingRanges });
  monaco.languages.registerDocumentFormattingEditProvider(JSON_LANGUAGE_ID, {
    provideDocumentFormattingEdits: (model, options) => formatModel(monaco, model, options),
  });
  // formatOnPaste formats the pasted range.
  monaco.languages.registerDocumentRangeFormattingEditProvider(JSON_LANGUAGE_ID, {
    provideDocumentRangeFormattingEdits(model, range, options) {
      const offset = model.getOffsetAt({ lineNumber: range.startLineNumber, column: range.startColumn });
      const end = model.getOffsetAt({ lineNumber: range.endLineNumber, column: range.endColumn });
      return formatModel(monaco, model, options, { offset, length: end - offset });
    },
  });
}
