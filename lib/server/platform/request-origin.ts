import "server-only";
import { headers } from "next/headers";
import { config } from "./config.ts";
import { publicOrigin } from "./public-origin.ts";

/** Our own public origin, for display URLs in server-rendered pages (see publicOrigin). */
export async function requestOrigin(): Promise<string> {
  return publicOrigin(await headers(), config());
}
