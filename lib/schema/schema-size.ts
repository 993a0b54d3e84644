/**
 * How big and how deep a JSON value (a tool's inputSchema or outputSchema) is, measured without recursion, so a
 * hostile 100,000-level schema costs a linear walk instead of a stack overflow. The result decides whether the
 * schema may be compiled or walked at all (validators, docs model): compiling cost grows with both.
 */

export interface SchemaLimits {
  /** Largest schema, in bytes of its JSON text (UTF-8, no whitespace). */
  maxBytes: number;
  /** Deepest nesting of objects and arrays (`{}` is 1 level, `{"a":[]}` is 2). */
  maxDepth: number;
}

export interface JsonSize {
  /** Bytes of the value's JSON text: what `JSON.stringify(value)` would produce, as UTF-8. Key order does not change it. */
  bytes: number;
  /** Nesting depth of objects and arrays; 0 for a scalar. */
  depth: number;
}

/** UTF-8 bytes of a string once written as a JSON string literal, quotes included. */
export function jsonStringBytes(s: string): number {
  let bytes = 2;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x22 || c === 0x5c)
      bytes += 2; // \" and \\
    else if (c < 0x20)
      bytes += c === 0x08 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d ? 2 : 6; // \n… or \u00XX
    else if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && s.charCodeAt(i + 1) >= 0xdc00 && s.charCodeAt(i + 1) <= 0xdfff) {
      bytes += 4; // a surrogate pair is one 4-byte character
      i++;
    } else if (c >= 0xd800 && c <= 0xdfff)
      bytes += 6; // a lone surrogate is written as \uXXXX
    else bytes += 3;
  }
  return bytes;
}

function scalarBytes(v: unknown): number {
  if (typeof v === "string") return jsonStringBytes(v);
  if (typeof v === "number") return Number.isFinite(v) ? String(v).length : 4; // non-finite numbers are written as null
  if (typeof v === "boolean") return v ? 4 : 5;
  return 4; // null (and anything JSON cannot hold, written as null in arrays)
}

/**
 * Size and depth of a JSON tree (as `JSON.parse` returns it), with an explicit stack. Linear in the value's size;
 * a value from JSON text cannot be cyclic, so the walk always ends.
 */
export function measureJson(value: unknown): JsonSize {
  let bytes = 0;
  let depth = 0;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [v, level] = stack.pop()!;
    if (Array.isArray(v)) {
      depth = Math.max(depth, level);
      bytes += 2 + Math.max(v.length - 1, 0); // brackets and commas
      for (const item of v) stack.push([item, level + 1]);
    } else if (typeof v === "object" && v !== null) {
      depth = Math.max(depth, level);
      let entries = 0;
      for (const key in v) {
        const item = (v as Record<string, unknown>)[key];
        if (item === undefined || typeof item === "function" || typeof item === "symbol") continue; // JSON leaves these out
        entries++;
        bytes += jsonStringBytes(key) + 1; // "key":
        stack.push([item, level + 1]);
      }
      bytes += 2 + Math.max(entries - 1, 0); // braces and commas
    } else {
      bytes += scalarBytes(v);
    }
  }
  return { bytes, depth };
}

/**
 * Why `schema` must not be compiled or walked, naming the limit and its setting; undefined when it is within both.
 * `where` names the schema in the message, e.g. "inputSchema".
 */
export function schemaLimitProblem(where: string, schema: unknown, limits: SchemaLimits): string | undefined {
  const { bytes, depth } = measureJson(schema);
  const n = (x: number) => x.toLocaleString("en-US");
  const problems: string[] = [];
  if (bytes > limits.maxBytes) problems.push(`${n(bytes)} bytes of JSON (the limit is ${n(limits.maxBytes)}, TOOLSCOPE_MAX_SCHEMA_BYTES)`);
  if (depth > limits.maxDepth)
    problems.push(`nested ${n(depth)} levels deep (the limit is ${n(limits.maxDepth)}, TOOLSCOPE_MAX_SCHEMA_DEPTH)`);
  return problems.length ? `${where} is ${problems.join(" and ")}` : undefined;
}
