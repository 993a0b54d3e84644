"use client";

/** Switches between light and dark, remembering the choice. The initial class is set by the layout's inline script. */
export function ThemeToggle() {
  const toggle = () => {
    const dark = document.documentElement.classList.toggle("dark");
    try {
      localStorage.setItem("toolscope.theme", dark ? "dark" : "light");
    } catch {
      // Private mode: the choice just isn't remembered.
    }
  };
  return (
    <button
      type="button"
      onClick={toggle}
      data-testid="theme-toggle"
      className="rounded-md border border-zinc-300 px-2.5 py-1 text-sm hover:bg-zinc-100 dark:border-zinc-700 dark:hover:bg-zinc-800"
      aria-label="Toggle dark mode"
    >
      <span className="dark:hidden">Dark</span>
      <span className="hidden dark:inline">Light</span>
    </button>
  );
}
