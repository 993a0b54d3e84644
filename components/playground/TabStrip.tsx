"use client";

import { useEffect, useRef, useState } from "react";

export interface TabItem {
  id: string;
  title: string;
  /** Shown on hover: the tab's server, in full. */
  hint?: string;
}

interface Props {
  tabs: TabItem[];
  activeId: string | null;
  /** The id of the tabpanel the tabs control. */
  panelId: string;
  onSelect: (id: string) => void;
  onClose: (id: string) => void;
  onNew: () => void;
  onRename: (id: string, name: string) => void;
  onMove: (id: string, delta: number) => void;
}

/** The DOM id of a tab (the tabpanel is labelled by the active one). */
export const tabDomId = (id: string) => `playground-tab-${id}`;

/**
 * The playground's request tabs (ARIA tablist). Keyboard, on a focused tab: ←/→ Home/End move the focus, Enter or
 * Space opens it, Alt+Shift+←/→ moves it, F2 renames, Delete closes. Mouse: click opens, double click renames,
 * middle click or × closes. Activation is manual because opening a tab mounts a whole playground.
 */
export function TabStrip({ tabs, activeId, panelId, onSelect, onClose, onNew, onRename, onMove }: Props) {
  const refs = useRef<Record<string, HTMLButtonElement | null>>({});
  const [renaming, setRenaming] = useState<string | null>(null);
  // After a move, close or rename the focus belongs on a tab that re-rendered: focused after the next render.
  const focusWanted = useRef<string | null>(null);
  useEffect(() => {
    const id = focusWanted.current;
    if (!id) return;
    focusWanted.current = null;
    const el = refs.current[id];
    el?.focus();
    el?.scrollIntoView?.({ block: "nearest", inline: "nearest" });
  });

  // The active tab in view (e.g. after opening one at the far end of a scrolled strip).
  useEffect(() => {
    if (activeId) refs.current[activeId]?.scrollIntoView?.({ block: "nearest", inline: "nearest" });
  }, [activeId]);

  const focusable = activeId && tabs.some((t) => t.id === activeId) ? activeId : tabs[0]?.id;

  const onKey = (e: React.KeyboardEvent, index: number, id: string) => {
    if (e.altKey && e.shiftKey && (e.key === "ArrowLeft" || e.key === "ArrowRight")) {
      e.preventDefault();
      onMove(id, e.key === "ArrowLeft" ? -1 : 1);
      focusWanted.current = id;
      return;
    }
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    let target: number | null = null;
    if (e.key === "ArrowRight") target = (index + 1) % tabs.length;
    else if (e.key === "ArrowLeft") target = (index - 1 + tabs.length) % tabs.length;
    else if (e.key === "Home") target = 0;
    else if (e.key === "End") target = tabs.length - 1;
    else if (e.key === "F2") {
      e.preventDefault();
      setRenaming(id);
      return;
    } else if (e.key === "Delete") {
      e.preventDefault();
      const next = tabs[index + 1] ?? tabs[index - 1];
      onClose(id);
      if (next) focusWanted.current = next.id;
      return;
    }
    if (target === null) return;
    e.preventDefault();
    refs.current[tabs[target]!.id]?.focus();
  };

  return (
    <div className="flex min-w-0 items-stretch gap-1 border-b border-zinc-200 dark:border-zinc-800" data-testid="tab-strip">
      {/* Scrolls sideways when the tabs do not fit (never wraps); padding keeps the focus rings inside the scroller. */}
      <div role="tablist" aria-label="Requests" className="flex min-w-0 flex-1 gap-1 overflow-x-auto px-1 pt-1" data-testid="tab-list">
        {tabs.map((t, i) => {
          const active = t.id === activeId;
          if (renaming === t.id)
            return (
              <RenameField
                key={t.id}
                initial={t.title}
                onDone={(name) => {
                  setRenaming(null);
                  if (name !== null) onRename(t.id, name);
                  focusWanted.current = t.id;
                }}
              />
            );
          return (
            <button
              key={t.id}
              ref={(el) => {
                refs.current[t.id] = el;
              }}
              type="button"
              role="tab"
              id={tabDomId(t.id)}
              aria-selected={active}
              aria-controls={active ? panelId : undefined}
              aria-keyshortcuts="Delete F2 Alt+Shift+ArrowLeft Alt+Shift+ArrowRight"
              tabIndex={t.id === focusable ? 0 : -1}
              title={t.hint ? `${t.title} — ${t.hint}` : t.title}
              data-testid="playground-tab"
              data-active={active || undefined}
              onClick={() => onSelect(t.id)}
              onDoubleClick={() => setRenaming(t.id)}
              onMouseDown={(e) => {
                if (e.button === 1) e.preventDefault(); // no autoscroll cursor on middle click
              }}
              onAuxClick={(e) => {
                if (e.button !== 1) return;
                e.preventDefault();
                onClose(t.id);
              }}
              onKeyDown={(e) => onKey(e, i, t.id)}
              className={`group -mb-px flex max-w-56 shrink-0 items-center gap-1.5 rounded-t-md border px-2.5 py-1 text-sm focus-visible:outline-offset-[-2px] ${
                active
                  ? "border-zinc-200 border-b-white bg-white font-medium text-zinc-900 shadow-[inset_0_2px_0_var(--color-accent-600)] dark:border-zinc-800 dark:border-b-zinc-950 dark:bg-zinc-950 dark:text-zinc-100"
                  : "border-transparent text-zinc-600 hover:bg-zinc-100 hover:text-zinc-900 dark:text-zinc-400 dark:hover:bg-zinc-900 dark:hover:text-zinc-100"
              }`}
            >
              <span className="truncate">{t.title}</span>
              {/* Mouse only: the keyboard closes a focused tab with Delete (a button inside a tab would be nested controls). */}
              <span
                aria-hidden
                data-testid="close-tab"
                onClick={(e) => {
                  e.stopPropagation();
                  onClose(t.id);
                }}
                className="grid h-4 w-4 shrink-0 place-items-center rounded text-xs leading-none text-zinc-500 hover:bg-zinc-200 hover:text-zinc-900 dark:hover:bg-zinc-700 dark:hover:text-zinc-100"
              >
                ×
              </span>
            </button>
          );
        })}
      </div>
      <button
        type="button"
        onClick={onNew}
        aria-label="New tab"
        aria-keyshortcuts="Alt+Shift+T"
        title="New tab (Alt+Shift+T)"
        data-testid="new-tab"
        className="my-1 shrink-0 rounded-md px-2.5 text-base leading-none text-zinc-600 hover:bg-zinc-100 hover:text-zinc-900 dark:text-zinc-400 dark:hover:bg-zinc-900 dark:hover:text-zinc-100"
      >
        +
      </button>
    </div>
  );
}

/** The tab's name being edited in place: Enter or leaving keeps it, Escape gives up (null). */
function RenameField({ initial, onDone }: { initial: string; onDone: (name: string | null) => void }) {
  const [value, setValue] = useState(initial);
  const done = useRef(false);
  const finish = (name: string | null) => {
    if (done.current) return;
    done.current = true;
    onDone(name);
  };
  return (
    <input
      aria-label="Tab name (Enter to keep, Escape to cancel; empty goes back to the default)"
      data-testid="rename-tab"
      autoFocus
      value={value}
      maxLength={60}
      onFocus={(e) => e.currentTarget.select()}
      onChange={(e) => setValue(e.target.value)}
      onBlur={() => finish(value === initial ? null : value)}
      onKeyDown={(e) => {
        if (e.key === "Enter") {
          e.preventDefault();
          finish(value === initial ? null : value);
        } else if (e.key === "Escape") {
          e.preventDefault();
          e.stopPropagation();
          finish(null);
        }
      }}
      className="-mb-px w-44 shrink-0 rounded-t-md border border-accent-500 bg-white px-2 py-1 text-sm dark:bg-zinc-900"
    />
  );
}
