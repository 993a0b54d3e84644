import { explorerBox, explorerToggle } from "./explorer-styles";

/**
 * The explorer while the server is being connected: its box and toggle, disabled, so the editor beside it is already in
 * place (and takes typing) before the tool list is in.
 */
export function ToolExplorerPending({ open }: { open: boolean }) {
  return (
    <aside aria-label="Explorer" data-testid="explorer-pending" className={explorerBox(open)}>
      <button type="button" disabled className={explorerToggle} title="The explorer opens once the server is connected">
        <span aria-hidden className="text-xs">
          {open ? "▾" : "▸"}
        </span>
        Explore
        <span className="ml-auto text-xs text-zinc-600 dark:text-zinc-400">connecting…</span>
      </button>
    </aside>
  );
}
