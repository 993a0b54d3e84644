// One rule for an integer setting of the HTTP server's own modules (scripts/*.mjs, plain Node, read before the app
// loads): the same message lib/server/platform/config.ts gives, naming the variable and its bounds.

/** The integer in `env[name]`, or `fallback` when unset; throws naming the variable when out of [min, max]. */
export function int(env, [name, fallback, min, max]) {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) throw new Error(`${name}=${raw} is invalid: use an integer from ${min} to ${max}.`);
  return n;
}
