/** The playground's keyboard shortcuts, listed in the help panel (`?`) and docs/playground.md. */
export interface Shortcut {
  keys: string;
  action: string;
}

export const SHORTCUTS: readonly Shortcut[] = [
  { keys: "Ctrl/Cmd+Enter", action: "Send the request (in the editor)" },
  { keys: "Ctrl/Cmd+S", action: "Save the request under a name (kept in this browser)" },
  { keys: "Ctrl/Cmd+K", action: "Command palette: templates, history, saved requests, share, copy as code…" },
  { keys: "?", action: "This help (outside text fields)" },
  { keys: "Alt+Shift+T", action: "New request tab, on the current tab's server" },
  { keys: "← → Home End", action: "On a request tab: move between tabs (Enter or Space opens one)" },
  { keys: "Alt+Shift+← / →", action: "Move the focused request tab left / right" },
  { keys: "F2 (or double click)", action: "Rename the focused request tab (empty name: back to the default)" },
  { keys: "Delete (or middle click)", action: "Close the focused request tab" },
  { keys: "Ctrl+Space", action: "Completion: methods, tools, argument keys, enum values" },
  { keys: "F8 / Shift+F8", action: "Next / previous problem in the editor" },
  { keys: "Shift+Alt+F", action: "Format the request" },
  { keys: "↑ ↓  Enter", action: "Move and run in the command palette" },
  { keys: "← →", action: "Switch result tabs; resize the split when the separator has focus" },
  { keys: "Ctrl+M (Mac: Ctrl+Shift+M)", action: "Toggle Tab between indenting and moving the focus out of the editor" },
  { keys: "Escape", action: "Close a dialog (in an input dialog: cancel that request)" },
];
