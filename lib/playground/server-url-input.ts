/**
 * What a person types into "MCP server URL", made into the URL the API takes (issue 26: "localhost:3001/mcp" got only
 * the browser's "Please enter a URL"). A scheme is added when none was typed: http for loopback and private hosts
 * (a dev server), https for the rest. Names Toolscope itself understands (builtin:, stdio:) pass as typed.
 */
export type ServerUrlInput = { url: string; added?: "http://" | "https://" } | { error: string };

const SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;
const OWN_NAMES = /^(builtin|stdio):/i;
/** Hosts a developer runs servers on: loopback, private IPv4 ranges, .local names. */
const LOCAL_HOST =
  /^(localhost|127(\.\d{1,3}){3}|0\.0\.0\.0|\[::1?\]|10(\.\d{1,3}){3}|192\.168(\.\d{1,3}){2}|172\.(1[6-9]|2\d|3[01])(\.\d{1,3}){2}|[^/:]+\.local)(:\d+)?(\/|$)/i;

export function completeServerUrl(typed: string): ServerUrlInput {
  const text = typed.trim();
  if (!text) return { error: "Type the server's MCP endpoint, such as https://example.com/mcp or http://localhost:3001/mcp." };
  if (SCHEME.test(text) || OWN_NAMES.test(text)) return { url: text };
  if (/\s/.test(text)) return { error: `"${text}" is not a URL: it contains a space. Type the endpoint, such as https://example.com/mcp.` };
  const added = LOCAL_HOST.test(text) ? "http://" : "https://";
  return { url: `${added}${text}`, added };
}
