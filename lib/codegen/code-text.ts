/** Text helpers shared by the "Copy as code" generators (./copy-as-code.ts, ./copy-as-sse.ts). */

/** A header whose value the reader supplies: `env` names the environment variable. */
export interface Placeholder {
  env: string;
}
export type HeaderValue = string | Placeholder;

/** `Authorization` → `AUTHORIZATION`, `X-Api-Key` → `X_API_KEY`. */
export function envName(header: string): string {
  const name = header
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "");
  return /^[0-9]/.test(name) ? `H_${name}` : name || "HEADER";
}

/** Quote for a POSIX shell: single quotes, with embedded ones closed, escaped and reopened. */
export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/** One curl `-H` argument; a placeholder expands from the environment (`"Authorization: $AUTHORIZATION"`). */
export function curlHeader(name: string, value: HeaderValue): string {
  // Header names are HTTP tokens (no quotes, no $), so double quotes are safe around a placeholder.
  return typeof value === "string" ? `-H ${shellQuote(`${name}: ${value}`)}` : `-H "${name}: $${value.env}"`;
}

/** Header entries of a JS object literal; a placeholder reads `process.env`. */
export function jsHeaders(headers: readonly [string, HeaderValue][], indent: string): string {
  return headers
    .map(([n, v]) => `${indent}${JSON.stringify(n)}: ${typeof v === "string" ? JSON.stringify(v) : `process.env.${v.env} ?? ""`},`)
    .join("\n");
}

/** Pretty JSON whose continuation lines carry `indent`, for embedding in code. */
export function indentJson(value: unknown, indent: string): string {
  return JSON.stringify(value, null, 2).replace(/\n/g, `\n${indent}`);
}
