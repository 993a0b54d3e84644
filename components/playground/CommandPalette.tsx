"use client";

import { useId, useMemo, useState } from "react";
import { filterCommands } from "@/lib/playground/command-filter";
import { Modal } from "./Modal";

/** One thing the palette can do. */
export interface PaletteCommand {
  id: string;
  label: string;
  /** Grouping shown at the right, e.g. "Template", "Action". */
  group: string;
  /** A shortcut to show, e.g. "Ctrl/Cmd+Enter". */
  shortcut?: string;
  run: () => void;
}

interface Props {
  commands: PaletteCommand[];
  onClose: () => void;
  title?: string;
  placeholder?: string;
}

/** Ctrl/Cmd+K: type to filter, ↑/↓ to move, Enter to run, Escape to close. */
export function CommandPalette({ commands, onClose, title = "Command palette", placeholder = "Type a command or a template…" }: Props) {
  const [query, setQuery] = useState("");
  const [active, setActive] = useState(0);
  const listId = useId();
  const shown = useMemo(() => filterCommands(commands, query), [commands, query]);
  const current = Math.min(active, Math.max(0, shown.length - 1));
  const run = (c: PaletteCommand | undefined) => {
    if (!c) return;
    onClose();
    c.run();
  };
  const onKeyDown = (e: React.KeyboardEvent) => {
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      const delta = e.key === "ArrowDown" ? 1 : -1;
      const next = (current + delta + shown.length) % Math.max(1, shown.length);
      setActive(next);
      document.getElementById(`${listId}-${next}`)?.scrollIntoView({ block: "nearest" });
    } else if (e.key === "Enter") {
      e.preventDefault();
      run(shown[current]);
    } else if (e.key === "Home" || e.key === "End") {
      e.preventDefault();
      setActive(e.key === "Home" ? 0 : shown.length - 1);
    }
  };
  return (
    <Modal
      title={title}
      onClose={onClose}
      testId="command-palette"
      hideTitle
      widthClass="w-[min(36rem,calc(100vw-2rem))] mt-[12vh] mb-auto"
    >
      <input
        data-autofocus
        role="combobox"
        aria-expanded="true"
        aria-controls={listId}
        aria-activedescendant={shown.length ? `${listId}-${current}` : undefined}
        aria-label={title}
        placeholder={placeholder}
        value={query}
        onChange={(e) => {
          setQuery(e.target.value);
          setActive(0);
        }}
        onKeyDown={onKeyDown}
        data-testid="palette-input"
        className="w-full rounded-md border border-zinc-300 bg-white px-3 py-2 text-sm dark:border-zinc-700 dark:bg-zinc-950"
      />
      <ul id={listId} role="listbox" aria-label="Commands" className="mt-2 max-h-[50vh] overflow-auto">
        {shown.map((c, i) => (
          <li
            key={c.id}
            id={`${listId}-${i}`}
            role="option"
            aria-selected={i === current}
            data-testid="palette-item"
            onMouseMove={() => setActive(i)}
            onClick={() => run(c)}
            className={`flex cursor-pointer items-center gap-2 rounded px-2 py-1.5 text-sm ${i === current ? "bg-accent-50 text-accent-700 dark:bg-accent-700/30 dark:text-accent-100" : ""}`}
          >
            <span className="min-w-0 flex-1 truncate">{c.label}</span>
            {c.shortcut && (
              <kbd className="rounded border border-zinc-300 px-1 font-mono text-[10px] text-zinc-500 dark:border-zinc-700">
                {c.shortcut}
              </kbd>
            )}
            <span className="text-xs text-zinc-500">{c.group}</span>
          </li>
        ))}
        {shown.length === 0 && <li className="px-2 py-1.5 text-sm text-zinc-500">No command matches.</li>}
      </ul>
    </Modal>
  );
}
