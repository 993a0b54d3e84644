/**
 * JSON Pointer (RFC 6901). Leaf module: imports nothing.
 *
 * A pointer is "" (the whole document) or a sequence of "/"-prefixed reference tokens, with `~` written
 * `~0` and `/` written `~1` inside a token. The URI-fragment form (`#/a%20b`) is not handled here:
 * percent-decode it first.
 */

/** Escape one reference token: `~` → `~0` first, then `/` → `~1`. */
export function escapeToken(token: string | number): string {
  return String(token).replace(/~/g, "~0").replace(/\//g, "~1");
}

/** Unescape one reference token: `~1` → `/` first, then `~0` → `~` (so `~01` reads as `~1`). */
export function unescapeToken(token: string): string {
  return token.replace(/~1/g, "/").replace(/~0/g, "~");
}

/** The pointer for a path of keys and indices (`[]` → `""`, `["a/b", 0]` → `"/a~1b/0"`). */
export function buildPointer(path: readonly (string | number)[]): string {
  return path.map((t) => `/${escapeToken(t)}`).join("");
}

/** Append one token to a pointer. */
export function appendPointer(pointer: string, token: string | number): string {
  return `${pointer}/${escapeToken(token)}`;
}

/** The unescaped tokens of a pointer (`""` → `[]`); undefined when it is neither `""` nor starts with `/`. */
export function parsePointer(pointer: string): string[] | undefined {
  if (pointer === "") return [];
  if (!pointer.startsWith("/")) return undefined;
  return pointer.slice(1).split("/").map(unescapeToken);
}
