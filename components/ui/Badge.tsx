import type { ReactNode } from "react";

export type BadgeTone = "neutral" | "accent" | "success" | "warning" | "danger" | "info";
export type BadgeVariant = "solid" | "outline" | "dashed";

/** Props for {@link Badge}. */
export interface BadgeProps {
  /** Colour family. Default "neutral". */
  tone?: BadgeTone;
  /** "solid" for facts the source stated, "dashed" for inferred/default values, "outline" for neutral labels. Default "outline". */
  variant?: BadgeVariant;
  /** Tooltip text (also useful to explain where a value came from). */
  title?: string;
  /** Muted rendering for values that do not apply. */
  muted?: boolean;
  className?: string;
  testId?: string;
  children: ReactNode;
}

const TONES: Record<BadgeTone, { solid: string; line: string }> = {
  neutral: {
    solid: "bg-zinc-100 text-zinc-800 border-zinc-300 dark:bg-zinc-800 dark:text-zinc-100 dark:border-zinc-600",
    line: "text-zinc-700 border-zinc-400 dark:text-zinc-300 dark:border-zinc-500",
  },
  accent: {
    solid: "bg-accent-50 text-accent-700 border-accent-500 dark:bg-accent-700/30 dark:text-accent-100 dark:border-accent-500",
    line: "text-accent-700 border-accent-500 dark:text-accent-100 dark:border-accent-500",
  },
  success: {
    solid: "bg-emerald-50 text-emerald-800 border-emerald-500 dark:bg-emerald-900/40 dark:text-emerald-200 dark:border-emerald-500",
    line: "text-emerald-800 border-emerald-500 dark:text-emerald-300 dark:border-emerald-500",
  },
  warning: {
    solid: "bg-amber-50 text-amber-900 border-amber-500 dark:bg-amber-900/40 dark:text-amber-200 dark:border-amber-500",
    line: "text-amber-900 border-amber-500 dark:text-amber-300 dark:border-amber-500",
  },
  danger: {
    solid: "bg-red-50 text-red-800 border-red-500 dark:bg-red-900/40 dark:text-red-200 dark:border-red-500",
    line: "text-red-800 border-red-500 dark:text-red-300 dark:border-red-500",
  },
  info: {
    solid: "bg-sky-50 text-sky-800 border-sky-500 dark:bg-sky-900/40 dark:text-sky-200 dark:border-sky-500",
    line: "text-sky-800 border-sky-500 dark:text-sky-300 dark:border-sky-500",
  },
};

/** A small inline label. Server-safe (no client code). */
export function Badge({ tone = "neutral", variant = "outline", title, muted, className = "", testId, children }: BadgeProps) {
  const colours = variant === "solid" ? TONES[tone].solid : TONES[tone].line;
  const border = variant === "dashed" ? "border-dashed" : "border-solid";
  return (
    <span
      title={title}
      data-testid={testId}
      className={`inline-flex max-w-full items-center gap-1 whitespace-nowrap rounded-full border px-2 py-0.5 text-xs font-medium leading-5 ${border} ${colours} ${muted ? "opacity-60" : ""} ${className}`}
    >
      {children}
    </span>
  );
}
