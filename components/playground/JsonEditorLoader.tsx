"use client";

import dynamic from "next/dynamic";
import type { JsonEditorProps } from "./JsonEditor";

/** Monaco evaluates `window` on import, so the editor is never server-rendered and arrives as a lazy chunk. */
const LazyJsonEditor = dynamic(() => import("./JsonEditor").then((m) => m.JsonEditor), {
  ssr: false,
  loading: () => (
    <div
      className="grid h-full w-full place-items-center rounded-md border border-zinc-200 text-sm text-zinc-500 dark:border-zinc-800 dark:text-zinc-400"
      role="status"
    >
      Loading editor…
    </div>
  ),
});

/**
 * The request editor, loaded lazily on the client. Same props as {@link JsonEditorProps}; the outer box takes
 * `height`/`className` so the page does not jump when Monaco arrives.
 */
export function JsonEditorLoader({ height = 320, className, ...rest }: JsonEditorProps) {
  return (
    <div className={className} style={{ height }}>
      <LazyJsonEditor {...rest} height="100%" />
    </div>
  );
}
