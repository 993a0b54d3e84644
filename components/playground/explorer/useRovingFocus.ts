"use client";

import { useLayoutEffect, useRef, type FocusEvent, type RefObject } from "react";

/** The entries of the explorer (tools, resources, templates, prompts) across its sections. */
const ITEM = "[data-explorer-item]";

/** Give one entry the tab stop: the others are reached with the arrow keys (moveFocus in ToolExplorer). */
function setTabStop(root: HTMLElement, stop: HTMLElement | undefined): void {
  for (const item of root.querySelectorAll<HTMLElement>(ITEM)) item.tabIndex = item === stop ? 0 : -1;
}

/**
 * A roving tab stop over the explorer's entries, as a list box has: Tab enters the list once, at the entry last
 * focused (else the chosen one, else the first), and leaves it with the next Tab (issue 26: the explorer cost one Tab
 * per tool, 24 from the list to the first argument field). Spread `onFocus` on the element around the entries.
 */
export function useRovingFocus(container: RefObject<HTMLElement | null>): { onFocus: (e: FocusEvent) => void } {
  const last = useRef<HTMLElement | null>(null);
  useLayoutEffect(() => {
    const root = container.current;
    if (!root) return;
    const items = Array.from(root.querySelectorAll<HTMLElement>(ITEM));
    const kept = last.current && items.includes(last.current) ? last.current : undefined;
    setTabStop(root, kept ?? items.find((i) => i.getAttribute("aria-current") === "true") ?? items[0]);
  });
  return {
    onFocus: (e) => {
      const target = e.target as HTMLElement;
      if (!container.current || !target.matches(ITEM)) return;
      last.current = target;
      setTabStop(container.current, target);
    },
  };
}
