"use client";

import { useState } from "react";
import { useModalDialog } from "./useModalDialog";

interface Props {
  toolName: string;
  /** The tool's own title or a one-line summary of its hints. */
  summary: string;
  /** `dontAskAgain` when the user ticked "don't ask again". */
  onConfirm: (dontAskAgain: boolean) => void;
  onCancel: () => void;
}

/** Asks before a tools/call to an effectively destructive tool. Escape or Cancel sends nothing. */
export function ConfirmDestructiveDialog({ toolName, summary, onConfirm, onCancel }: Props) {
  const ref = useModalDialog();
  const [dontAsk, setDontAsk] = useState(false);
  return (
    <dialog
      ref={ref}
      onCancel={(e) => {
        e.preventDefault();
        onCancel();
      }}
      aria-labelledby="confirm-destructive-title"
      data-testid="confirm-destructive"
      className="m-auto w-[min(28rem,calc(100vw-2rem))] rounded-lg border border-zinc-200 bg-white p-4 text-zinc-900 shadow-xl backdrop:bg-black/40 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100"
    >
      <h2 id="confirm-destructive-title" className="text-base font-semibold">
        Call a destructive tool?
      </h2>
      <p className="mt-2 text-sm">
        <code className="font-semibold">{toolName}</code> may delete or overwrite data on the server ({summary}). Annotations are the
        server&apos;s claims, not guarantees.
      </p>
      <label className="mt-3 flex items-center gap-2 text-sm">
        <input type="checkbox" checked={dontAsk} onChange={(e) => setDontAsk(e.target.checked)} data-testid="confirm-dont-ask" />
        Don&apos;t ask again in this browser
      </label>
      <div className="mt-4 flex justify-end gap-2">
        <button
          type="button"
          data-autofocus
          onClick={onCancel}
          className="rounded-md border border-zinc-300 px-3 py-1.5 text-sm dark:border-zinc-700"
        >
          Cancel
        </button>
        <button
          type="button"
          onClick={() => onConfirm(dontAsk)}
          className="rounded-md bg-red-600 px-4 py-1.5 text-sm font-medium text-white hover:bg-red-700"
          data-testid="confirm-send"
        >
          Send anyway
        </button>
      </div>
    </dialog>
  );
}
