"use client";

import { useState } from "react";
import {
  describeRequest,
  MAX_SAVED_NAME_CHARS,
  MAX_SAVED_NOTE_CHARS,
  type SaveDraft,
  type SavedRequest,
} from "@/lib/playground/stores/saved-store";
import { Modal } from "../Modal";
import type { SavedRequests } from "./useSaved";

interface Props {
  /** What to save: the editor's text for this server (never any header). */
  draft: Omit<SaveDraft, "name" | "note">;
  serverLabel: string;
  saved: SavedRequests;
  onSaved: (entry: SavedRequest, replaced: boolean) => void;
  onClose: () => void;
}

const field = "w-full rounded-md border border-zinc-300 bg-white px-2 py-1.5 text-sm dark:border-zinc-700 dark:bg-zinc-950";

/** Ctrl/Cmd+S: name the editor's request and keep it in this browser. A name already used for this server asks before replacing. */
export function SaveDialog({ draft, serverLabel, saved, onSaved, onClose }: Props) {
  const [name, setName] = useState(() => {
    const { method, tool } = describeRequest(draft.request);
    return tool ?? method ?? "";
  });
  const [note, setNote] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [clash, setClash] = useState<SavedRequest | null>(null);

  const submit = async (overwrite: boolean) => {
    const outcome = await saved.save({ ...draft, name, note }, overwrite);
    if (outcome.kind === "invalid") setError(outcome.error);
    else if (outcome.kind === "exists") setClash(outcome.existing);
    else onSaved(outcome.entry, Boolean(outcome.replaced));
  };

  return (
    <Modal title="Save request" onClose={onClose} testId="save-dialog" widthClass="w-[min(30rem,calc(100vw-2rem))]">
      <form
        className="space-y-3"
        onSubmit={(e) => {
          e.preventDefault();
          void submit(false);
        }}
      >
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          Kept in this browser under <span className="break-all font-mono text-xs">{serverLabel}</span>. Only the request text is saved,
          never your headers.
        </p>
        <label className="block text-sm">
          <span className="mb-1 block font-medium">Name</span>
          <input
            data-autofocus
            value={name}
            maxLength={MAX_SAVED_NAME_CHARS}
            onChange={(e) => {
              setName(e.target.value);
              setError(null);
              setClash(null);
            }}
            onFocus={(e) => e.currentTarget.select()}
            required
            aria-invalid={error !== null || clash !== null}
            aria-describedby="save-name-problem"
            data-testid="save-name"
            className={field}
          />
        </label>
        <label className="block text-sm">
          <span className="mb-1 block font-medium">
            Note <span className="font-normal text-zinc-500">(optional)</span>
          </span>
          <textarea
            value={note}
            maxLength={MAX_SAVED_NOTE_CHARS}
            rows={2}
            onChange={(e) => setNote(e.target.value)}
            data-testid="save-note"
            className={field}
          />
        </label>
        <div id="save-name-problem">
          {error && (
            <p role="alert" className="text-sm text-red-700 dark:text-red-400">
              {error}
            </p>
          )}
          {clash && (
            <div
              role="alert"
              data-testid="save-clash"
              className="rounded-md border border-amber-300 bg-amber-50 p-2 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950/50 dark:text-amber-200"
            >
              “{clash.name}” is already saved for this server. Replace it with the editor&apos;s request, or change the name.
              <div className="mt-2">
                <button
                  type="button"
                  onClick={() => void submit(true)}
                  data-testid="save-replace"
                  className="rounded-md bg-amber-600 px-3 py-1 text-sm font-medium text-white hover:bg-amber-700"
                >
                  Replace “{clash.name}”
                </button>
              </div>
            </div>
          )}
        </div>
        <div className="flex justify-end gap-2">
          <button type="button" onClick={onClose} className="rounded-md border border-zinc-300 px-3 py-1.5 text-sm dark:border-zinc-700">
            Cancel
          </button>
          <button
            type="submit"
            data-testid="save-submit"
            className="rounded-md bg-accent-600 px-4 py-1.5 text-sm font-medium text-white hover:bg-accent-700"
          >
            Save
          </button>
        </div>
      </form>
    </Modal>
  );
}
