"use client";

import { useEffect, useRef } from "react";

/**
 * Opens a native `<dialog>` as modal on mount (focus trap, Escape, backdrop) and closes it on unmount.
 * showModal() focuses the first focusable element (often a close button); an element marked `data-autofocus` wins.
 */
export function useModalDialog() {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current;
    if (d && !d.open) d.showModal();
    d?.querySelector<HTMLElement>("[data-autofocus]")?.focus();
    return () => d?.close();
  }, []);
  return ref;
}
