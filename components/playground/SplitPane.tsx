"use client";

import { useRef } from "react";
import { clampSplit } from "@/lib/playground/stores/prefs-store";

interface Props {
  /** Share of the width for the first pane (0.2–0.8). */
  split: number;
  onSplit: (split: number) => void;
  first: React.ReactNode;
  second: React.ReactNode;
  /** Accessible name of the separator. */
  label?: string;
}

const STEP = 0.05;

/**
 * Two panes side by side with a draggable, keyboard-operable separator (←/→ by 5%, Home/End to the limits);
 * stacked, without a separator, below 900 px.
 */
export function SplitPane({ split, onSplit, first, second, label = "Resize editor and result" }: Props) {
  const box = useRef<HTMLDivElement>(null);
  const onPointerDown = (e: React.PointerEvent<HTMLDivElement>) => {
    e.preventDefault();
    const target = e.currentTarget;
    target.setPointerCapture(e.pointerId);
    const move = (ev: PointerEvent) => {
      const rect = box.current?.getBoundingClientRect();
      if (rect && rect.width > 0) onSplit(clampSplit((ev.clientX - rect.left) / rect.width));
    };
    const up = () => {
      target.removeEventListener("pointermove", move);
      target.removeEventListener("pointerup", up);
    };
    target.addEventListener("pointermove", move);
    target.addEventListener("pointerup", up);
  };
  const onKeyDown = (e: React.KeyboardEvent) => {
    const next =
      e.key === "ArrowLeft"
        ? split - STEP
        : e.key === "ArrowRight"
          ? split + STEP
          : e.key === "Home"
            ? 0.2
            : e.key === "End"
              ? 0.8
              : undefined;
    if (next === undefined) return;
    e.preventDefault();
    onSplit(clampSplit(next));
  };
  const pct = Math.round(split * 100);
  return (
    <div
      ref={box}
      className="flex flex-col gap-4 min-[900px]:flex-row min-[900px]:gap-0"
      style={{ "--split": `${pct}%` } as React.CSSProperties}
      data-testid="split-pane"
    >
      <div className="min-w-0 min-[900px]:shrink-0 min-[900px]:basis-[var(--split)] min-[900px]:pr-2">{first}</div>
      <div
        role="separator"
        aria-orientation="vertical"
        aria-label={label}
        aria-valuemin={20}
        aria-valuemax={80}
        aria-valuenow={pct}
        tabIndex={0}
        onPointerDown={onPointerDown}
        onKeyDown={onKeyDown}
        data-testid="split-separator"
        className="group hidden w-3 shrink-0 cursor-col-resize touch-none justify-center min-[900px]:flex"
      >
        <span className="h-full w-px bg-zinc-200 group-hover:w-0.5 group-hover:bg-accent-500 group-focus-visible:w-0.5 group-focus-visible:bg-accent-500 dark:bg-zinc-800" />
      </div>
      <div className="min-w-0 flex-1 min-[900px]:pl-2">{second}</div>
    </div>
  );
}
