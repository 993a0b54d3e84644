/**
 * A tiny JSON tokenizer for read-only views (raw responses): splits text into classed spans using
 * jsonc-parser's scanner. Never fails: unknown characters become plain text, so any string can be shown.
 */
import { createScanner } from "jsonc-parser";

/** jsonc-parser's `SyntaxKind` values (a const enum, which isolatedModules cannot read from a .d.ts). */
const K = {
  OpenBrace: 1,
  CloseBrace: 2,
  OpenBracket: 3,
  CloseBracket: 4,
  Comma: 5,
  Colon: 6,
  Null: 7,
  True: 8,
  False: 9,
  String: 10,
  Number: 11,
  LineBreakTrivia: 14,
  Trivia: 15,
  EOF: 17,
} as const;

export type JsonTokenClass = "key" | "string" | "number" | "literal" | "punctuation" | "plain";

export interface JsonToken {
  text: string;
  cls: JsonTokenClass;
}

/** Above this size the text is returned as one plain token (rendering 100k spans is slower than it is useful). */
export const MAX_HIGHLIGHT_CHARS = 200_000;

/** Tokens whose concatenated `text` is exactly the input. Strings followed by a colon are keys. */
export function highlightJson(text: string): JsonToken[] {
  if (text.length > MAX_HIGHLIGHT_CHARS) return [{ text, cls: "plain" }];
  const scanner = createScanner(text, false);
  const raw: { start: number; end: number; kind: number }[] = [];
  for (let kind: number = scanner.scan(); kind !== K.EOF; kind = scanner.scan()) {
    const start = scanner.getTokenOffset();
    raw.push({ start, end: start + scanner.getTokenLength(), kind });
  }
  const out: JsonToken[] = [];
  const push = (t: string, cls: JsonTokenClass) => {
    if (!t) return;
    const last = out[out.length - 1];
    if (last && last.cls === cls && cls !== "key" && cls !== "string") last.text += t;
    else out.push({ text: t, cls });
  };
  let pos = 0;
  for (let i = 0; i < raw.length; i++) {
    const { start, end, kind } = raw[i];
    if (start > pos) push(text.slice(pos, start), "plain");
    const t = text.slice(start, end);
    switch (kind) {
      case K.String: {
        let j = i + 1;
        while (j < raw.length && (raw[j].kind === K.Trivia || raw[j].kind === K.LineBreakTrivia)) j++;
        push(t, raw[j]?.kind === K.Colon ? "key" : "string");
        break;
      }
      case K.Number:
        push(t, "number");
        break;
      case K.True:
      case K.False:
      case K.Null:
        push(t, "literal");
        break;
      case K.OpenBrace:
      case K.CloseBrace:
      case K.OpenBracket:
      case K.CloseBracket:
      case K.Colon:
      case K.Comma:
        push(t, "punctuation");
        break;
      default:
        push(t, "plain");
    }
    pos = end;
  }
  if (pos < text.length) push(text.slice(pos), "plain");
  return out;
}
