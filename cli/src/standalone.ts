/**
 * The packed CLI's entry (scripts/build-cli.mjs bundles it with everything it imports): the version is the
 * repository's, written in at build time.
 */
import { runCli } from "./run";

declare const TOOLSCOPE_CLI_VERSION: string;

await runCli(TOOLSCOPE_CLI_VERSION);
