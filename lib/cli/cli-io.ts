/**
 * Where the command line writes: machine output on stdout only, progress and diagnostics on stderr, colour only on a
 * terminal (and never with NO_COLOR), nothing but the result with --quiet. Every string written passes the mask of
 * the run's secrets (header values, tokens), so no path can print one.
 */
import { maskText, mergeSecrets, NO_SECRETS, secretValues, type SecretValues } from "../mcp/mask-text.ts";

export interface CliStreams {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** stderr is a terminal (colour allowed). */
  stderrIsTTY: boolean;
  env: Readonly<Record<string, string | undefined>>;
}

export class CliOutput {
  private secrets: SecretValues = NO_SECRETS;
  quiet = false;

  constructor(private readonly streams: CliStreams) {}

  /** Secrets of the run (header values, client secrets, tokens): masked wherever they would appear from now on. */
  addSecrets(secrets: SecretValues | readonly string[]): void {
    this.secrets = mergeSecrets(this.secrets, Array.isArray(secrets) ? secretValues(secrets) : (secrets as SecretValues));
  }

  get colour(): boolean {
    return this.streams.stderrIsTTY && !this.streams.env.NO_COLOR && this.streams.env.TERM !== "dumb";
  }

  /** The command's result (JSON, SARIF, Markdown, text): stdout. */
  result(text: string): void {
    this.streams.stdout(maskText(text, this.secrets));
  }

  /** Progress: stderr, unless --quiet. */
  progress(text: string): void {
    if (!this.quiet) this.streams.stderr(`${maskText(text, this.secrets)}\n`);
  }

  /** A failure, in one line plus what to change: stderr, even with --quiet. */
  error(message: string, hint?: string): void {
    const label = this.colour ? "\u001b[31merror\u001b[0m" : "error";
    this.streams.stderr(`toolscope: ${label}: ${maskText(message, this.secrets)}\n`);
    if (hint) this.streams.stderr(`  ${maskText(hint, this.secrets)}\n`);
  }
}
