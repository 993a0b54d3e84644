/** The demo's tests serve it with the shared loopback adapter (lib/testing/serve-fetch.ts). */
export { serveFetchHandler, type FetchHandler, type ServedHandler } from "../../testing/serve-fetch.ts";
