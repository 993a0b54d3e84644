"use client";

import { SHORTCUTS } from "@/lib/playground/shortcuts";
import { Modal } from "./Modal";

/** `?`: the keyboard shortcuts. */
export function HelpDialog({ onClose }: { onClose: () => void }) {
  return (
    <Modal title="Keyboard shortcuts" onClose={onClose} testId="help-dialog" widthClass="w-[min(32rem,calc(100vw-2rem))]">
      <table className="w-full text-sm">
        <tbody>
          {SHORTCUTS.map((s) => (
            <tr key={s.keys} className="border-t border-zinc-100 dark:border-zinc-800">
              <th scope="row" className="whitespace-nowrap py-1.5 pr-4 text-left align-top font-normal">
                <kbd className="rounded border border-zinc-300 bg-zinc-50 px-1.5 py-0.5 font-mono text-xs dark:border-zinc-700 dark:bg-zinc-800">
                  {s.keys}
                </kbd>
              </th>
              <td className="py-1.5">{s.action}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="mt-3 text-xs text-zinc-500">
        In the editor, Tab indents: press <kbd className="font-mono">Ctrl+M</kbd> (Mac: <kbd className="font-mono">Ctrl+Shift+M</kbd>) to
        make Tab move the focus on instead. Every dialog and menu is reachable with Tab; diagnostics never block Send.
      </p>
      <p className="mt-2 text-xs text-zinc-500">
        Request tabs are kept in this browser (their text and last result, never header values); the tab strip is one Tab stop: arrows move
        between tabs there.
      </p>
    </Modal>
  );
}
