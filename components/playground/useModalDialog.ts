"use client";

import { useEffect, useRef } from "react";

/** Marks the element that gets the focus when a dialog's origin is gone: the request editor's box (focusable, tabindex -1). */
export const FOCUS_HOME_ATTR = "data-focus-home";

/**
 * The element that has the focus now, to give it back when a dialog closes; null when nothing does (the body), e.g.
 * after a click on a button that then turned disabled.
 */
export function focusOrigin(): HTMLElement | null {
  const active = document.activeElement;
  return active instanceof HTMLElement && active !== document.body ? active : null;
}

/**
 * The one rule for where the focus goes when a dialog closes: back to `origin` while it is still in the document and
 * can take the focus, else to the request editor, so Ctrl/Cmd+Enter keeps working instead of the focus falling to
 * `<body>` (16 Tabs away from the editor).
 */
export function returnFocus(origin: HTMLElement | null): void {
  if (origin?.isConnected && !origin.closest("dialog:not([open])")) {
    origin.focus();
    if (document.activeElement === origin) return;
  }
  // The editor's box forwards the focus to Monaco (JsonEditor), so this needs nothing of Monaco's own elements.
  document.querySelector<HTMLElement>(`[${FOCUS_HOME_ATTR}]`)?.focus();
}

/**
 * Opens a native `<dialog>` as modal on mount (focus trap, Escape, backdrop) and closes it on unmount, giving the
 * focus back by {@link returnFocus}. showModal() focuses the first focusable element (often a close button); an element
 * marked `data-autofocus` wins.
 */
export function useModalDialog() {
  const ref = useRef<HTMLDialogElement>(null);
  useDialogFocusReturn(ref);
  useEffect(() => {
    const d = ref.current;
    if (d && !d.open) d.showModal();
    d?.querySelector<HTMLElement>("[data-autofocus]")?.focus();
    return () => d?.close();
  }, []);
  return ref;
}

/**
 * An origin given up by a dialog that closed in the render that opened another (Share run from the palette): the new
 * dialog takes it over, so closing it returns to where the palette was opened from even when that element could not
 * take the focus at the moment the palette closed.
 */
let handedOn: HTMLElement | null | undefined;

/**
 * Records the focused element when a dialog mounts (before it opens: call this hook before the effect that calls
 * showModal) and, when it unmounts, closes the dialog and gives the focus back ({@link returnFocus}). React runs every
 * unmount cleanup of a render before the new effects, so a dialog opened in that same render finds the origin in
 * `handedOn`.
 */
export function useDialogFocusReturn(ref: React.RefObject<HTMLDialogElement | null>) {
  useEffect(() => {
    const dialog = ref.current;
    const origin = handedOn !== undefined ? handedOn : focusOrigin();
    handedOn = undefined;
    return () => {
      // Closed first: while it is open and modal, everything outside it is inert and cannot take the focus.
      dialog?.close();
      returnFocus(origin);
      handedOn = origin;
      queueMicrotask(() => {
        if (handedOn === origin) handedOn = undefined;
      });
    };
  }, [ref]);
}
