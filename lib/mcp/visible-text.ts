/**
 * A server's text made safe to show as it is: the characters that hide text from people or make it read differently
 * from what it is — bidi controls (U+202A–U+202E, U+2066–U+2069, U+200E/U+200F, U+061C), zero-width characters, word
 * joiners, the soft hyphen, the BOM and Unicode tag characters — become visible marks such as ⟪U+202E⟫. "…continue
 * \u202Emoc.elgoog" would otherwise show as "…continuegoogle.com". Pure; the one list of these characters (the
 * tool-poisoning lint reports the same ones).
 */

/** Invisible or direction-changing characters: zero-width, word joiners, bidi controls, BOM, tag characters. */
const HIDDEN = /[\u00AD\u061C\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]|[\u{E0000}-\u{E007F}]/gu;

/**
 * The same characters, tested without the `u` flag (tag characters as their surrogate pairs): a plain scan is several
 * times faster, and almost every text has none of them, so most never reach the replace or matchAll below.
 */
const MAYBE_HIDDEN = /[\u00AD\u061C\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]|\uDB40[\uDC00-\uDC7F]/;

/** "U+202E" for a character. */
function label(ch: string): string {
  return `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;
}

/** Invisible code points in `text`, as "U+200B" labels (each once, in order of appearance). */
export function invisibleChars(text: string): string[] {
  if (!MAYBE_HIDDEN.test(text)) return [];
  const found = new Set<string>();
  for (const m of text.matchAll(HIDDEN)) found.add(label(m[0]));
  return [...found];
}

/** `text` with every invisible or direction-changing character replaced by a visible mark (⟪U+202E⟫). */
export function visibleText(text: string): string {
  return MAYBE_HIDDEN.test(text) ? text.replace(HIDDEN, (ch) => `⟪${label(ch)}⟫`) : text;
}
