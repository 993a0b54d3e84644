/**
 * A collection's environment as the Tests panel edits it: the names of the headers the server needs (never their
 * values) and the variables set before the first call. The check of which needed headers a runner lacks is the one
 * `toolscope test` refuses a run with, so the panel and CI say the same thing.
 */
import type { Collection } from "./format.ts";

/** An HTTP header name (RFC 9110 token), as the format's schema accepts it. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** A variable name, as the format's schema accepts it. */
const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

export type EnvironmentEdit = { ok: true; collection: Collection } | { ok: false; error: string };

function withEnvironment(c: Collection, change: NonNullable<Collection["environment"]>): Collection {
  const environment = { ...c.environment, ...change };
  for (const key of Object.keys(environment) as (keyof typeof environment)[]) if (environment[key] === undefined) delete environment[key];
  const { environment: _old, ...rest } = c;
  return Object.keys(environment).length ? { ...rest, environment } : rest;
}

/** The names in `text` (commas or lines), once each whatever their case, or what is wrong with one. */
export function withHeaderNames(c: Collection, text: string): EnvironmentEdit {
  const names: string[] = [];
  const seen = new Set<string>();
  for (const raw of text.split(/[\n,]/)) {
    const name = raw.trim().replace(/:$/, "");
    if (!name) continue;
    if (!HEADER_NAME.test(name))
      return { ok: false, error: `${JSON.stringify(name)} is not a header name: only its name goes here (Authorization), never a value.` };
    if (seen.has(name.toLowerCase())) continue;
    seen.add(name.toLowerCase());
    names.push(name);
  }
  return { ok: true, collection: withEnvironment(c, { headers: names.length ? names : undefined }) };
}

/** The variables in `text` (a JSON object; empty for none), or what to change. */
export function withVariables(c: Collection, text: string): EnvironmentEdit {
  if (!text.trim()) return { ok: true, collection: withEnvironment(c, { variables: undefined }) };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, error: 'Variables are a JSON object, e.g. {"team": "platform"}.' };
  }
  if (!value || typeof value !== "object" || Array.isArray(value))
    return { ok: false, error: 'Variables are a JSON object, e.g. {"team": "platform"}.' };
  const bad = Object.keys(value).find((name) => !VARIABLE_NAME.test(name));
  if (bad !== undefined)
    return { ok: false, error: `${JSON.stringify(bad)} is not a variable name: a letter or _, then letters, digits, _ . -.` };
  return { ok: true, collection: withEnvironment(c, { variables: value as Record<string, unknown> }) };
}

/** The header names the collection needs that `given` (a runner's header names) lacks, compared without case. */
export function missingHeaders(c: Collection, given: readonly string[]): string[] {
  const have = new Set(given.map((h) => h.toLowerCase()));
  return (c.environment?.headers ?? []).filter((h) => !have.has(h.toLowerCase()));
}
