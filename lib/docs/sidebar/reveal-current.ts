/**
 * The current tool's sidebar link brought into view inside the sidebar's own scroller, without scrolling the page:
 * the web sidebar (components/docs/ToolSidebar) and a static site's script (lib/docs/static) both call it.
 */
export function revealCurrentLink(sidebar: HTMLElement): void {
  const link = sidebar.querySelector<HTMLElement>('[aria-current="page"]');
  if (!link) return;
  const scroller = [sidebar, sidebar.closest<HTMLElement>("[data-sidebar-scroller]")].find((s) => s && s.scrollHeight > s.clientHeight);
  if (!scroller) return;
  const top = link.getBoundingClientRect().top - scroller.getBoundingClientRect().top;
  if (top < 0 || top > scroller.clientHeight - 40) scroller.scrollTop += top - scroller.clientHeight / 3;
}
