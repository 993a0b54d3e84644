/** Class names shared by the explorer's lists (tools, resources, templates, prompts). */

/** One choosable entry: a full-width button with a visible focus ring. */
export const explorerItem =
  "block w-full min-w-0 rounded px-1.5 py-1 text-left hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-offset-[-2px] focus-visible:outline-accent-600 aria-[current=true]:bg-accent-50 dark:hover:bg-zinc-800 dark:aria-[current=true]:bg-accent-700/30";

/** A list's heading inside the explorer. */
export const explorerSectionHeading = "px-1 text-xs font-semibold tracking-wide text-zinc-600 uppercase dark:text-zinc-400";

/** The explorer's box beside the editor, open or closed: the same whether its lists are in yet or not, so nothing moves. */
export const explorerBox = (open: boolean) => `min-w-0 shrink-0 ${open ? "min-[900px]:w-72" : "min-[900px]:w-auto"}`;
export const explorerToggle =
  "flex w-full items-center gap-1.5 rounded-md border border-zinc-300 px-2.5 py-1 text-left text-sm hover:bg-zinc-50 focus-visible:outline-2 focus-visible:outline-accent-600 disabled:opacity-60 disabled:hover:bg-transparent dark:border-zinc-700 dark:hover:bg-zinc-900";
