import type { ReactNode } from "react";

/** Props for {@link CodeChip}. */
export interface CodeChipProps {
  /** Tooltip (e.g. the full value when the chip text is shortened). */
  title?: string;
  /** "accent" highlights protocol names such as header names. Default "neutral". */
  tone?: "neutral" | "accent";
  className?: string;
  testId?: string;
  children: ReactNode;
}

/** An inline monospace chip for literal values: enum members, defaults, header names. */
export function CodeChip({ title, tone = "neutral", className = "", testId, children }: CodeChipProps) {
  const colours =
    tone === "accent"
      ? "border-accent-500/40 bg-accent-50 text-accent-700 dark:border-accent-500/50 dark:bg-accent-700/20 dark:text-accent-100"
      : "border-zinc-200 bg-zinc-50 text-zinc-800 dark:border-zinc-700 dark:bg-zinc-800/60 dark:text-zinc-200";
  return (
    <code
      title={title}
      data-testid={testId}
      className={`inline-block max-w-full break-all rounded border px-1.5 py-px font-mono text-[0.8rem] leading-5 ${colours} ${className}`}
    >
      {children}
    </code>
  );
}
