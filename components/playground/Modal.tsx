"use client";

import { useModalDialog } from "./useModalDialog";

interface Props {
  title: string;
  onClose: () => void;
  children: React.ReactNode;
  testId?: string;
  /** Tailwind width class (default a medium dialog). */
  widthClass?: string;
  /** Hide the visible title (still the dialog's accessible name). */
  hideTitle?: boolean;
}

/** A modal dialog (native `<dialog>`: focus trap, Escape, backdrop) with a title and a close button; `data-autofocus` marks the element to focus. */
export function Modal({ title, onClose, children, testId, widthClass = "w-[min(40rem,calc(100vw-2rem))]", hideTitle }: Props) {
  const ref = useModalDialog();
  return (
    <dialog
      ref={ref}
      aria-label={title}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
      onClick={(e) => {
        if (e.target === ref.current) onClose();
      }}
      data-testid={testId}
      className={`m-auto ${widthClass} rounded-lg border border-zinc-200 bg-white p-0 text-zinc-900 shadow-xl backdrop:bg-black/40 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100`}
    >
      <div className="max-h-[85vh] overflow-auto p-4">
        <div className={`mb-3 flex items-center gap-2 ${hideTitle ? "sr-only" : ""}`}>
          <h2 className="text-base font-semibold">{title}</h2>
          <button
            type="button"
            onClick={onClose}
            className="ml-auto rounded px-2 text-lg leading-none text-zinc-500 hover:bg-zinc-100 dark:hover:bg-zinc-800"
            aria-label="Close"
          >
            ×
          </button>
        </div>
        {children}
      </div>
    </dialog>
  );
}
