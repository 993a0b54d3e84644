/** Short, safe text for a JSON value shown in docs (enum members, defaults, examples). */

export const MAX_VALUE_CHARS = 80;

/** JSON text of `value`, shortened to `max` characters with an ellipsis. Never throws. */
export function shortJson(value: unknown, max = MAX_VALUE_CHARS): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > max ? `${text.slice(0, Math.max(1, max - 1))}…` : text;
}
