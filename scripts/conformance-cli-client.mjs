// The official conformance suite's client command for Toolscope's command line (not the web app: that is
// scripts/conformance-client.mjs). The suite appends the mock server's URL and hands the scenario's context over in
// MCP_CONFORMANCE_CONTEXT; for the client credentials scenarios that is the client id and its secret, or its private
// key and algorithm. They go to `toolscope snapshot` the way a pipeline would give them: the secret and the key in
// environment variables, never on the command line.
//
//   conformance client --command "node scripts/conformance-cli-client.mjs" --scenario auth/client-credentials-basic
import { spawn } from "node:child_process";

const url = process.argv.at(-1);
if (!url || !/^https?:\/\//.test(url)) {
  console.error("usage: node scripts/conformance-cli-client.mjs <server URL> (the conformance suite appends it)");
  process.exit(2);
}
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? "{}");
const args = ["bin/toolscope.mjs", "snapshot", url];
const env = { ...process.env };
if (typeof context.client_id === "string") {
  args.push("--client-id", context.client_id);
  if (typeof context.client_secret === "string") {
    env.TOOLSCOPE_CC_SECRET = context.client_secret;
    args.push("--client-secret-env", "TOOLSCOPE_CC_SECRET");
  } else if (typeof context.private_key_pem === "string") {
    env.TOOLSCOPE_CC_KEY = context.private_key_pem;
    args.push("--private-key-env", "TOOLSCOPE_CC_KEY");
    if (typeof context.signing_algorithm === "string") args.push("--signing-alg", context.signing_algorithm);
  }
}
const child = spawn(process.execPath, args, { env, stdio: "inherit" });
child.on("close", (code) => process.exit(code ?? 1));
