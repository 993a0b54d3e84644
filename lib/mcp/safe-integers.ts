/**
 * Integer literals that JSON.parse cannot keep. A JSON number becomes an IEEE-754 double, which holds every integer
 * only up to ±(2^53 − 1) (Number.MAX_SAFE_INTEGER); beyond that JSON.parse silently picks the nearest double, so
 * `9007199254740993` arrives as `9007199254740992`: a tool argument changes without a word, and a mirrored
 * `Mcp-Param-*` header (which takes safe integers only) is left out. This module reads the JSON TEXT, before anyone
 * parses it, and names every such literal.
 *
 * What counts: a number token written as an integer — an optional minus and digits, with no fraction and no
 * exponent — whose magnitude exceeds 9007199254740991, whether or not the nearest double happens to equal it
 * (`9007199254740994` survives JSON.parse, but nothing around it does, and a reader cannot tell which ones will).
 * Numbers in floating-point notation are not reported: `1.5`, `1e30`, `1.0`, and also `1e20` (exactly representable)
 * and `12345678901234567890.0`. Whoever writes a fraction or an exponent asks for a double and gets one; for those a
 * check of the parsed value (`Number.isInteger(v) && !Number.isSafeInteger(v)`) is the right tool.
 *
 * Pure and tolerant: no imports, never throws; text that is not valid JSON yields what was found before the error.
 */
import { escapeToken } from "../json/pointer.ts";

/** One integer literal beyond ±(2^53 − 1). */
export interface UnsafeInteger {
  /** Where the value sits (RFC 6901 JSON Pointer: `~` as `~0`, `/` as `~1`; `""` for a bare top-level number). */
  pointer: string;
  /** The literal exactly as written, e.g. `-9007199254740993`. */
  literal: string;
  /** Offset of the literal in the text (UTF-16 code units, as JavaScript strings count), for an editor marker. */
  offset: number;
}

const MAX_SAFE_DIGITS = String(Number.MAX_SAFE_INTEGER); // "9007199254740991", 16 digits

/** True when a digit string (no sign, no leading zeros) is above Number.MAX_SAFE_INTEGER. */
function digitsBeyondSafe(digits: string): boolean {
  if (digits.length !== MAX_SAFE_DIGITS.length) return digits.length > MAX_SAFE_DIGITS.length;
  return digits > MAX_SAFE_DIGITS;
}

type Frame = { kind: "object"; key: string | undefined; expectKey: boolean } | { kind: "array"; index: number };

/** The shortest digit run an integer beyond 2^53 − 1 can be written with (9007199254740992 has 16 digits). */
const SIXTEEN_DIGITS = /[0-9]{16}/;

const NUMBER = /-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/y;

/**
 * Every integer literal in `jsonText` whose magnitude exceeds 2^53 − 1, in text order, with its JSON Pointer.
 * Strings (keys included, with their escapes) are skipped as strings: a number inside a string is text.
 */
export function findUnsafeIntegers(jsonText: string): UnsafeInteger[] {
  // Every unsafe literal has at least 16 digits in a row; text without such a run has none. One regex test instead of
  // a walk in JavaScript: the proxy checks every request body, and the editor every keystroke (issue 15's profile).
  if (!SIXTEEN_DIGITS.test(jsonText)) return [];
  const found: UnsafeInteger[] = [];
  const stack: Frame[] = [];
  const pointer = () => stack.map((f) => "/" + escapeToken(f.kind === "array" ? String(f.index) : (f.key ?? ""))).join("");
  const text = jsonText;
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === '"') {
      // A string: find its closing quote, stepping over every escape (`\"`, `\\`, `\u0022`: the char after `\`).
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === "\\" ? 2 : 1;
      if (j >= text.length) return found; // unterminated: invalid JSON, stop here
      const top = stack[stack.length - 1];
      if (top?.kind === "object" && top.expectKey) {
        const raw = text.slice(i, j + 1);
        let key: string;
        try {
          key = JSON.parse(raw) as string;
        } catch {
          key = raw.slice(1, -1);
        }
        top.key = key;
        top.expectKey = false;
      }
      i = j + 1;
      continue;
    }
    if (c === "-" || (c >= "0" && c <= "9")) {
      NUMBER.lastIndex = i;
      const m = NUMBER.exec(text);
      if (!m) return found; // a lone "-": invalid JSON
      const literal = m[0];
      if (m[1] === undefined && m[2] === undefined && digitsBeyondSafe(literal.replace(/^-/, "")))
        found.push({ pointer: pointer(), literal, offset: i });
      i += literal.length;
      continue;
    }
    if (c === "{") stack.push({ kind: "object", key: undefined, expectKey: true });
    else if (c === "[") stack.push({ kind: "array", index: 0 });
    else if (c === "}" || c === "]") stack.pop();
    else if (c === ",") {
      const top = stack[stack.length - 1];
      if (top?.kind === "array") top.index++;
      else if (top?.kind === "object") {
        top.expectKey = true;
        top.key = undefined;
      }
    }
    // Whitespace, ":", and the letters of true/false/null need nothing.
    i++;
  }
  return found;
}

/** What JSON.parse makes of an integer literal, written out in full (the double's exact integer value). */
export function parsedIntegerText(literal: string): string {
  const n = Number(literal);
  return Number.isFinite(n) ? BigInt(n).toString() : String(n);
}

/**
 * One sentence about the literals found: where each is, what JSON.parse would turn it into, and what to do instead
 * (send it as a string, or a number within ±9007199254740991). Three are named at most; "" for none.
 */
export function unsafeIntegerMessage(found: readonly Pick<UnsafeInteger, "pointer" | "literal">[]): string {
  if (found.length === 0) return "";
  const where = (p: string) => (p === "" ? "the top level" : p);
  const limit = `±${Number.MAX_SAFE_INTEGER} (2^53 − 1), the largest integer a JSON number holds exactly`;
  if (found.length === 1) {
    const [f] = found;
    return `${f.literal} at ${where(f.pointer)} is beyond ${limit}, so JSON.parse would silently turn it into ${parsedIntegerText(f.literal)}: send it as a string ("${f.literal}") or use a number within ±${Number.MAX_SAFE_INTEGER}.`;
  }
  const shown = found.slice(0, 3).map((f) => `${f.literal} at ${where(f.pointer)} into ${parsedIntegerText(f.literal)}`);
  const more = found.length > 3 ? `; and ${found.length - 3} more` : "";
  return `${found.length} integers are beyond ${limit}, so JSON.parse would silently change them (${shown.join("; ")}${more}): send each as a string or use numbers within ±${Number.MAX_SAFE_INTEGER}.`;
}
