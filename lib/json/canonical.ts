/**
 * Canonical JSON text: equal values give equal text, whatever the order their keys were written in.
 * Leaf module: imports nothing.
 *
 * Rules:
 * - Object keys are sorted (by UTF-16 code units, `Array.prototype.sort`) at every level, then laid out as a
 *   JavaScript object lays them out: integer-like keys ("0", "10") come first in numeric order. This is the
 *   text content-addressed snapshot ids have always been computed from, so it must not change.
 * - `undefined` is JSON.stringify's rule, applied everywhere: an object member whose value is `undefined`
 *   (or a function/symbol) is dropped, as if absent; the same in an array becomes `null`; and a top-level
 *   `undefined` gives `"null"` (the function always returns a string). So `{ a: undefined }` and `{}` are equal,
 *   just as they are once sent over the wire.
 * - Otherwise as JSON.stringify: `toJSON` is honoured, non-finite numbers become `null`, a bigint throws.
 */
export function canonicalJson(value: unknown, space?: number): string {
  return (
    JSON.stringify(
      value,
      (_key, v: unknown) => {
        if (v === null || typeof v !== "object" || Array.isArray(v)) return v;
        // Null prototype: a "__proto__" member stays an ordinary key instead of setting the prototype.
        const sorted = Object.create(null) as Record<string, unknown>;
        for (const k of Object.keys(v).sort()) sorted[k] = (v as Record<string, unknown>)[k];
        return sorted;
      },
      space,
    ) ?? "null"
  );
}
