/**
 * What the request editor's two stages share: the plain textarea shown while Monaco loads (JsonEditorLoader) and
 * Monaco itself (JsonEditor). Its own module so the loader gets these without evaluating Monaco; the same label, font
 * and line height make the hand-over from one to the other invisible.
 */

/** The editor's accessible name, in both stages. */
export const EDITOR_ARIA_LABEL =
  "JSON-RPC request (Ctrl+Enter or Cmd+Enter to send; Ctrl+M, on a Mac Ctrl+Shift+M, makes Tab leave the editor)";

/** The app's monospace stack (globals.css --font-mono), spelled out: Monaco measures its font from this string. */
export const EDITOR_FONT_FAMILY = 'ui-monospace, "SFMono-Regular", Menlo, Consolas, "Liberation Mono", monospace';
export const EDITOR_FONT_SIZE = 13;
/** Pinned (Monaco would pick 18 px on Linux and 20 px on a Mac) so the textarea's lines match Monaco's. */
export const EDITOR_LINE_HEIGHT = 18;
