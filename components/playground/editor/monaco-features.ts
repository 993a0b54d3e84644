/**
 * The Monaco editor contributions the request editor uses, and only those: not monaco-editor/features/register.all,
 * which registers every one of them (diff editor, inline completions, sticky scroll, colour picker…; the chunk was
 * 3.7 MB). Each line says what needs it; every editor shortcut the help dialog lists is among them.
 *
 * JsonEditorLoader imports this module beside JsonEditor, in parallel and before any editor is created (an editor
 * only gets the contributions registered when it is created). Being a separate dynamic import is deliberate: the
 * bundler then puts what only the contributions use in a chunk of its own, and what they share with Monaco's core in
 * another, instead of one chunk of some 800 KB gzipped.
 *
 * Left out on purpose: Monaco's command palette (F1; the playground has its own on Ctrl/Cmd+K, which replaces Monaco's
 * Ctrl+K chords) and go to line; comment toggling (comments are errors in a request); links, parameter hints, code
 * lens, colour picker, rename, references, inlay hints and inline completions (nothing provides them for a request).
 */
import "monaco-editor/features/suggest/register"; // completion (Ctrl+Space, quick suggestions)…
import "monaco-editor/editor/contrib/suggest/browser/suggestController"; // …whose controller that entry point leaves out
import "monaco-editor/features/snippet/register"; // completions that insert as snippets (monaco-adapter)
import "monaco-editor/features/hover/register"; // our hovers and the markers' messages
import "monaco-editor/features/gotoError/register"; // F8 / Shift+F8: next / previous problem
import "monaco-editor/features/format/register"; // Shift+Alt+F and formatOnPaste (json-language.ts formats)
import "monaco-editor/features/toggleTabFocusMode/register"; // Ctrl+M: Tab leaves the editor (help, aria label)
import "monaco-editor/features/find/register"; // Ctrl+F / Ctrl+H in a long request
import "monaco-editor/features/folding/register"; // folding nested arguments (json-language.ts finds the ranges)
import "monaco-editor/features/bracketMatching/register"; // which brace closes which
import "monaco-editor/features/smartSelect/register"; // Shift+Alt+→ grows the selection along the JSON
import "monaco-editor/features/wordOperations/register"; // Ctrl+←/→ and Ctrl+Backspace by words
import "monaco-editor/features/multicursor/register"; // Ctrl+D and the other multi-cursor commands
import "monaco-editor/features/linesOperations/register"; // Alt+↑/↓ move lines, Ctrl+Shift+K, indent/outdent
import "monaco-editor/features/wordHighlighter/register"; // the other occurrences of the word at the cursor
import "monaco-editor/features/cursorUndo/register"; // Ctrl+U: undo the last cursor move
import "monaco-editor/features/clipboard/register"; // cut / copy / paste commands (context menu, keyboard)
import "monaco-editor/features/contextmenu/register"; // right click: cut, copy, paste, format
import "monaco-editor/features/dnd/register"; // dragging a selection to move it
