/**
 * Validating one part of a value against the subschema of a form node, with the same ajv rules as the editor
 * (lib/schema/validate.ts). The part's schema is reached by `$ref` from a wrapper that carries the root's `$defs`
 * and `definitions`, so the subschema's own local refs still resolve.
 */
import { isObject } from "../json/guards.ts";
import { validateAgainst, type ValidationResult } from "../schema/validate.ts";

/** The name the root schema is kept under inside a wrapper (not a name a real schema would use). */
const ROOT_KEY = "toolscope-form-root";

/** One wrapper per (root, at), so ajv's compile cache sees the same object again on each keystroke. */
const wrappers = new WeakMap<object, Map<string, Record<string, unknown>>>();

function wrapperFor(root: unknown, at: string): unknown {
  if (at === "#" || !isObject(root)) return root;
  let byAt = wrappers.get(root);
  if (!byAt) wrappers.set(root, (byAt = new Map()));
  let wrapper = byAt.get(at);
  if (!wrapper) {
    wrapper = {
      ...(root.$schema !== undefined ? { $schema: root.$schema } : {}),
      $defs: { ...(isObject(root.$defs) ? root.$defs : {}), [ROOT_KEY]: root },
      ...(root.definitions !== undefined ? { definitions: root.definitions } : {}),
      $ref: `#/$defs/${ROOT_KEY}${at.slice(1)}`,
    };
    byAt.set(at, wrapper);
  }
  return wrapper;
}

/** Validate `value` against the subschema at `at` ("#/properties/a/oneOf/1") of `root`. */
export function validateAt(root: unknown, at: string, value: unknown): ValidationResult {
  return validateAgainst(wrapperFor(root, at), value);
}
