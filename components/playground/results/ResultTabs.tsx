"use client";

import { useRef, useState } from "react";

export interface TabSpec {
  id: string;
  label: string;
  content: React.ReactNode;
}

/** Accessible tabs (arrow keys move between them). Props: `tabs`; `testId` for the tablist. */
export function ResultTabs({ tabs, testId }: { tabs: TabSpec[]; testId?: string }) {
  const [active, setActive] = useState(tabs[0]?.id);
  const refs = useRef<Record<string, HTMLButtonElement | null>>({});
  const current = tabs.find((t) => t.id === active) ?? tabs[0];
  const onKey = (e: React.KeyboardEvent, index: number) => {
    const delta = e.key === "ArrowRight" ? 1 : e.key === "ArrowLeft" ? -1 : 0;
    if (!delta) return;
    e.preventDefault();
    const next = tabs[(index + delta + tabs.length) % tabs.length];
    setActive(next.id);
    refs.current[next.id]?.focus();
  };
  return (
    <div>
      <div role="tablist" data-testid={testId} className="flex gap-1 border-b border-zinc-200 dark:border-zinc-800">
        {tabs.map((t, i) => (
          <button
            key={t.id}
            ref={(el) => {
              refs.current[t.id] = el;
            }}
            role="tab"
            id={`tab-${t.id}`}
            aria-selected={t.id === current?.id}
            aria-controls={`panel-${t.id}`}
            tabIndex={t.id === current?.id ? 0 : -1}
            onClick={() => setActive(t.id)}
            onKeyDown={(e) => onKey(e, i)}
            className={`-mb-px border-b-2 px-3 py-1.5 text-sm ${t.id === current?.id ? "border-accent-600 font-medium" : "border-transparent text-zinc-500 hover:text-zinc-900 dark:hover:text-zinc-100"}`}
          >
            {t.label}
          </button>
        ))}
      </div>
      {current && (
        <div role="tabpanel" id={`panel-${current.id}`} aria-labelledby={`tab-${current.id}`} className="pt-3">
          {current.content}
        </div>
      )}
    </div>
  );
}
