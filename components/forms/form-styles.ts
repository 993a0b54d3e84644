/** Class names the form's parts share (the look of the elicitation dialog's inputs, light and dark). */
export const inputClass =
  "w-full min-w-0 rounded-md border border-zinc-300 bg-white px-2 py-1 text-sm aria-[invalid=true]:border-red-500 disabled:opacity-60 dark:border-zinc-700 dark:bg-zinc-900 dark:aria-[invalid=true]:border-red-500";
export const monoInputClass = `${inputClass} font-mono text-xs`;
/** Small text buttons on a field's label row and beside array items. */
export const smallButton =
  "rounded px-1.5 py-0.5 text-xs text-accent-700 hover:bg-accent-50 disabled:cursor-not-allowed disabled:text-zinc-400 disabled:hover:bg-transparent dark:text-accent-100 dark:hover:bg-zinc-800 dark:disabled:text-zinc-600";
export const iconButton =
  "inline-flex size-6 items-center justify-center rounded text-sm text-zinc-600 hover:bg-zinc-100 disabled:cursor-not-allowed disabled:opacity-40 dark:text-zinc-300 dark:hover:bg-zinc-800";
export const fieldsetClass = "min-w-0 rounded-md border border-zinc-200 px-2 pt-1 pb-2 dark:border-zinc-700";
export const hintClass = "text-xs text-zinc-500 dark:text-zinc-400";
export const errorClass = "text-xs text-red-700 dark:text-red-400";
export const noteClass = "text-xs text-amber-800 dark:text-amber-300";
