/**
 * What the browser bundle gets for Node's `Buffer` (next.config.ts aliases the bundler's polyfill here). Nothing in the
 * browser needs it: Monaco checks `typeof Buffer` and uses Uint8Array and TextEncoder without it, and the MCP SDK's
 * stdio line buffer (pulled in with the MCP Apps host library) never runs in a page. With the polyfill, Turbopack put
 * a copy into two chunks of the playground's first load (about 7 KB gzip each) once the apps host shared it.
 */
export const Buffer = undefined;
