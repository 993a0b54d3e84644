import type { ReactNode } from "react";

/** Props for {@link Card}. */
export interface CardProps {
  /** Optional heading shown at the top of the card. */
  title?: ReactNode;
  /** Heading level for `title` (default 3) so cards nest correctly in the page outline. */
  level?: 2 | 3 | 4;
  /** Extra content at the right of the heading (badges, counts). */
  aside?: ReactNode;
  className?: string;
  testId?: string;
  children: ReactNode;
}

/** A bordered section with an optional heading. */
export function Card({ title, level = 3, aside, className = "", testId, children }: CardProps) {
  const Heading = `h${level}` as "h2" | "h3" | "h4";
  return (
    <section
      data-testid={testId}
      className={`min-w-0 rounded-lg border border-zinc-200 bg-white p-3 sm:p-4 dark:border-zinc-800 dark:bg-zinc-900/40 ${className}`}
    >
      {(title || aside) && (
        <div className="mb-2 flex flex-wrap items-center justify-between gap-2">
          {title && <Heading className="text-sm font-semibold text-zinc-900 dark:text-zinc-100">{title}</Heading>}
          {aside}
        </div>
      )}
      {children}
    </section>
  );
}
