/** Header names whose values are credentials, whoever sent them. */
const ALWAYS_SECRET = ["authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key", "api-key"];
const SECRET_NAME = /(auth|token|secret|password|passwd|api[-_]?key|cookie|credential)/i;

/** True when a header's value must never be shown, logged or shared. */
export function isSecretHeader(name: string, userSecretNames: readonly string[] = []): boolean {
  const lower = name.toLowerCase();
  return ALWAYS_SECRET.includes(lower) || SECRET_NAME.test(lower) || userSecretNames.some((n) => n.toLowerCase() === lower);
}

/** Replace a secret value with a mask that keeps its scheme (e.g. "Bearer") and length, never the value. */
export function maskValue(value: string): string {
  const scheme = /^(Bearer|Basic|Token|DPoP)\s+/i.exec(value)?.[0] ?? "";
  return `${scheme}•••• (${value.length - scheme.length} chars hidden)`;
}

/** Mask the values of secret headers in a list of [name, value] pairs. */
export function maskHeaders(pairs: [string, string][], userSecretNames: readonly string[] = []): [string, string][] {
  return pairs.map(([n, v]) => [n, isSecretHeader(n, userSecretNames) ? maskValue(v) : v]);
}
