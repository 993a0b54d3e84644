"use client";

import { useState } from "react";

/** Copies `text` to the clipboard and says so for a moment. */
export function CopyButton({ text, label = "Copy", testId }: { text: string; label?: string; testId?: string }) {
  const [state, setState] = useState<"idle" | "done" | "failed">("idle");
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setState("done");
    } catch {
      setState("failed");
    }
    setTimeout(() => setState("idle"), 1500);
  };
  return (
    <button
      type="button"
      onClick={copy}
      data-testid={testId}
      className="rounded-md border border-zinc-300 px-3 py-1 text-sm dark:border-zinc-700"
      aria-live="polite"
    >
      {state === "done" ? "Copied" : state === "failed" ? "Copy failed: select the text" : label}
    </button>
  );
}
