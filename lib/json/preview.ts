/**
 * A JSON value as one short line of text, for messages and labels. Leaf module like the rest of lib/json: the docs'
 * parameter labels and the collections' expectation messages both cut values this way, each at its own length.
 */

/**
 * `value` as JSON, cut to at most `max` characters (the last one an ellipsis when cut). A value JSON cannot write
 * (undefined, a function, a cycle, a BigInt) falls back to `String(value)`, so this never throws.
 */
export function previewJson(value: unknown, max: number): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
