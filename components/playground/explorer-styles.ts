/** Class names shared by the explorer's lists (tools, resources, templates, prompts). */

/** One choosable entry: a full-width button with a visible focus ring. */
export const explorerItem =
  "block w-full min-w-0 rounded px-1.5 py-1 text-left hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-offset-[-2px] focus-visible:outline-accent-600 aria-[current=true]:bg-accent-50 dark:hover:bg-zinc-800 dark:aria-[current=true]:bg-accent-700/30";

/** A list's heading inside the explorer. */
export const explorerSectionHeading = "px-1 text-xs font-semibold tracking-wide text-zinc-600 uppercase dark:text-zinc-400";
