/**
 * The one rule for the address a docs page or the playground shows for a server. A builtin server (`builtin:demo`)
 * is served by Toolscope itself, so its address is its path on the origin the viewer's browser uses (the page's
 * origin): copied code then works from the viewer's machine, and a docs page cached from a request made under
 * another name (127.0.0.1 vs localhost) still shows the name this viewer used. Every other server is shown at its
 * own (credential-free) URL, unchanged. Pure.
 */
export function shownEndpoint(source: string, displayUrl: string, viewerOrigin: string): string {
  if (!source.startsWith("builtin:")) return displayUrl;
  let path: string;
  try {
    const u = new URL(displayUrl, viewerOrigin);
    path = `${u.pathname}${u.search}`;
  } catch {
    return displayUrl;
  }
  try {
    return new URL(path, viewerOrigin).toString();
  } catch {
    return displayUrl; // no usable origin: keep what the server side recorded
  }
}
