import type { ReactNode } from "react";

/**
 * A docs page with the tool sidebar: a sticky column on wide screens (scrolling on its own when long), a
 * disclosure above the content on narrow ones.
 */
export function DocsShell({ sidebar, children }: { sidebar: ReactNode; children: ReactNode }) {
  return (
    <div className="mx-auto max-w-7xl px-4 py-6 lg:grid lg:grid-cols-[16rem_minmax(0,1fr)] lg:gap-8">
      <aside
        aria-label="Tool navigation"
        data-sidebar-scroller=""
        className="mb-4 lg:sticky lg:top-0 lg:mb-0 lg:max-h-screen lg:self-start lg:overflow-y-auto lg:py-2 lg:pr-1"
      >
        {sidebar}
      </aside>
      <div className="min-w-0">{children}</div>
    </div>
  );
}
