import type { UserHeaders } from "../mcp/contract.ts";

/** Parse "Name: value" lines (blank lines ignored) into headers; errors name the line to fix. */
export function parseHeaderLines(text: string): { headers: UserHeaders; errors: string[] } {
  const headers: UserHeaders = {};
  const errors: string[] = [];
  text.split(/\r?\n/).forEach((line, i) => {
    if (line.trim() === "") return;
    const colon = line.indexOf(":");
    if (colon <= 0) {
      errors.push(`Line ${i + 1}: write "Name: value", e.g. "Authorization: Bearer …".`);
      return;
    }
    const name = line.slice(0, colon).trim();
    if (!/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(name)) {
      errors.push(`Line ${i + 1}: "${name}" is not a valid header name.`);
      return;
    }
    headers[name] = line.slice(colon + 1).trim();
  });
  return { headers, errors };
}
