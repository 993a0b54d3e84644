/**
 * The command line on this process: its arguments, stdout and stderr, environment and exit code, with every command
 * (lib/cli's and `docs`). Shared by bin/toolscope.mjs (a clone, through tsx) and the packed CLI's bundle.
 */
import { main } from "@/lib/cli/main";
import { COMMANDS } from "@/lib/cli/commands";
import { docs } from "./docs-command";

export async function runCli(version: string): Promise<void> {
  process.exitCode = await main(
    process.argv.slice(2),
    {
      stdout: (text) => process.stdout.write(text),
      stderr: (text) => process.stderr.write(text),
      stderrIsTTY: process.stderr.isTTY === true,
      env: process.env,
    },
    version,
    { ...COMMANDS, docs },
  );
}
