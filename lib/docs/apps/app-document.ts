/**
 * The document an MCP App's view runs as: the app's HTML behind the host's Content-Security-Policy. A `<meta>` policy
 * governs only what the parser meets after it, so it must come before anything of the app's: the wrapper starts with
 * a doctype (no quirks mode) and the policy, then the app's HTML with its own leading doctype taken off. A policy the
 * app adds of its own can only narrow ours (browsers enforce every policy they are given).
 */

const LEADING = /^\uFEFF?\s*(?:<!--[\s\S]*?-->\s*)*(?:<!doctype[^>]*>\s*)?/i;

function attribute(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
}

/** The view's document: our doctype and policy first, then the app's HTML. */
export function appDocument(html: string, policy: string): string {
  return `<!doctype html><meta http-equiv="Content-Security-Policy" content="${attribute(policy)}">${html.replace(LEADING, "")}`;
}
