"use client";

/**
 * The request editor: Monaco from our own bundle (never a CDN), with MCP-aware diagnostics, completions
 * and hovers from lib/editor. Load it through JsonEditorLoader (a dynamic import, client only, with a plain
 * textarea until Monaco is up), never directly from server-rendered code: importing this module evaluates
 * Monaco, which needs `window`.
 *
 * Who reports what: diagnoseRequest (lib/editor) reports everything, JSON syntax included (strict JSON: comments and
 * trailing commas are errors), and all of it becomes markers and the problems list alike. There is no JSON language
 * worker: json-language.ts says why. The editor contributions come from monaco-features.ts, which the loader
 * imports beside this module.
 */
import { useEffect, useRef, useState } from "react";
import * as monaco from "monaco-editor/editor";
import Editor, { loader, type OnMount } from "@monaco-editor/react";
import type { Era, Tool } from "@/lib/mcp/contract";
import { attachEditorSupport, type EditorSupport } from "@/lib/editor/monaco-adapter";
import { diagnoseRequest, type EditorDiagnostic } from "@/lib/editor/request-diagnostics";
import { EDITOR_ARIA_LABEL, EDITOR_FONT_FAMILY, EDITOR_FONT_SIZE, EDITOR_LINE_HEIGHT } from "./editor-look";
import { JSON_LANGUAGE_ID, registerJsonLanguage } from "./json-language";

/** The request model's URI: providers answer only for this model. */
export const REQUEST_MODEL_URI = "inmemory://toolscope/request.json";

/** How long typing must pause before diagnostics run. */
const DIAGNOSTICS_DELAY_MS = 150;

// ---- module scope: runs once, before any <Editor> mounts ----

// The editor worker (minimal edits after formatting, unicode checks) comes from a local wrapper file so the bundler
// emits a real worker entry (turbopack otherwise emits Monaco's as an unbundled asset that fails to load).
globalThis.MonacoEnvironment = {
  getWorker() {
    return new Worker(new URL("./editor.worker.ts", import.meta.url), { type: "module" });
  },
};

// Without this, @monaco-editor/react injects a loader script from jsDelivr.
loader.config({ monaco });

// Nothing else at module scope may reach Monaco's services (registering a language does): their first use starts
// them, and whatever monaco-features.ts registers after that (it loads beside this module, in no set order) would be
// left out: suggest and F8 went missing that way. The JSON language is registered in beforeMount instead.

function isDark(): boolean {
  return document.documentElement.classList.contains("dark");
}

/** What the plain textarea stage hands over when Monaco takes its place (JsonEditorLoader). */
export interface EditorHandover {
  /** The textarea's text: what the person sees, so the model gets it even if a keystroke is still on its way up. */
  text: string;
  /** The selection as UTF-16 offsets into `text` (the caret when equal). */
  selectionStart: number;
  selectionEnd: number;
  /** The caret is at the start of the selection (selected leftwards). */
  backward: boolean;
  scrollTop: number;
  /** The textarea had the focus: Monaco takes it. */
  focus: boolean;
}

/** Given to `onReady` once Monaco is up. */
export interface JsonEditorHandle {
  takeOver(from: EditorHandover): void;
  focus(): void;
}

export interface JsonEditorProps {
  /** The request text. */
  value: string;
  onChange: (text: string) => void;
  /** The connected server's tools (names, argument schemas) for diagnostics, completions and hovers. */
  tools: Tool[];
  /** The connection's protocol era: which MCP schema and method catalogue apply. */
  era: Era;
  /** Ctrl/Cmd+Enter. */
  onSend?: () => void;
  /** Ctrl/Cmd+K (replaces Monaco's Ctrl+K chords, which the palette covers). */
  onCommandPalette?: () => void;
  /** All diagnostics (including syntax errors), debounced, for a problems panel. */
  onDiagnostics?: (diagnostics: EditorDiagnostic[]) => void;
  /** CSS height of the editor box (default 320px). */
  height?: string | number;
  className?: string;
  readOnly?: boolean;
}

/** Reported texts kept while waiting for them to come back as `value` (a parent that never echoes stays bounded). */
const MAX_UNECHOED = 200;

/** 1-based line and column of a UTF-16 offset, counted on the text itself (whatever line ends the model keeps). */
function positionIn(text: string, offset: number): { lineNumber: number; column: number } {
  const before = text.slice(0, offset);
  const lineStart = before.lastIndexOf("\n") + 1;
  return { lineNumber: before.split("\n").length, column: offset - lineStart + 1 };
}

/**
 * Monaco-based JSON-RPC request editor with MCP diagnostics. No box of its own: JsonEditorLoader draws the border and
 * holds the test id, and shows a plain textarea until `onReady`.
 */
export function JsonEditor({
  value,
  onChange,
  tools,
  era,
  onSend,
  onCommandPalette,
  onDiagnostics,
  onReady,
  height = 320,
  className,
  readOnly,
}: JsonEditorProps & { onReady?: (handle: JsonEditorHandle) => void }) {
  const [theme, setTheme] = useState(() => (isDark() ? "vs-dark" : "vs"));
  const editorRef = useRef<monaco.editor.IStandaloneCodeEditor | null>(null);
  const supportRef = useRef<EditorSupport | null>(null);
  // Providers and commands are registered once; they read the latest props through this ref.
  const latest = useRef({ value, tools, era, onSend, onCommandPalette, onDiagnostics, onReady });
  useEffect(() => {
    latest.current = { value, tools, era, onSend, onCommandPalette, onDiagnostics, onReady };
  });
  const [mounted, setMounted] = useState(false);
  // Texts this editor reported through onChange that have not come back as `value` yet. Typing runs ahead of React
  // when renders are slow: a `value` that is one of these is our own, older text coming back, not a change from
  // outside. (@monaco-editor/react's own `value` sync would write it over the newer text and move the caret to the
  // end, which fast typing on a busy page hit: the keys went on after the closing brace.)
  const reported = useRef<string[]>([]);

  // A change from outside (a template, the form, a replay): into the model as one edit, so undo takes it back.
  useEffect(() => {
    const editor = editorRef.current;
    const model = editor?.getModel();
    if (!editor || !model) return;
    const echo = reported.current.indexOf(value);
    if (echo >= 0) {
      reported.current.splice(0, echo + 1);
      return;
    }
    reported.current = [];
    if (value === model.getValue()) return;
    // executeEdits refuses a read-only editor: the text is only shown there, no undo to keep.
    if (editor.getOption(monaco.editor.EditorOption.readOnly)) return model.setValue(value);
    editor.executeEdits("outside", [{ range: model.getFullModelRange(), text: value, forceMoveMarkers: true }]);
    editor.pushUndoStop();
  }, [value, mounted]);

  // Follow the `.dark` class on <html> (the theme toggle flips it).
  useEffect(() => {
    const observer = new MutationObserver(() => setTheme(isDark() ? "vs-dark" : "vs"));
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ["class"] });
    return () => observer.disconnect();
  }, []);

  // Debounced diagnostics whenever the text, the tools or the era change.
  useEffect(() => {
    const timer = setTimeout(() => {
      const model = editorRef.current?.getModel();
      const text = model?.getValue() ?? value;
      const diagnostics = diagnoseRequest(text, { tools, era });
      latest.current.onDiagnostics?.(diagnostics);
      if (model && supportRef.current) supportRef.current.setDiagnostics(model, diagnostics);
    }, DIAGNOSTICS_DELAY_MS);
    return () => clearTimeout(timer);
  }, [value, tools, era, mounted]);

  // One place disposes what we registered; the model itself is disposed by @monaco-editor/react.
  useEffect(
    () => () => {
      supportRef.current?.dispose();
      supportRef.current = null;
      editorRef.current = null;
    },
    [],
  );

  const handleMount: OnMount = (editor) => {
    editorRef.current = editor;
    // A model kept under the same path from an earlier editor starts from the current text.
    const model = editor.getModel();
    if (model && model.getValue() !== latest.current.value) model.setValue(latest.current.value);
    supportRef.current?.dispose();
    supportRef.current = attachEditorSupport(monaco, {
      modelUri: REQUEST_MODEL_URI,
      getContext: () => ({ tools: latest.current.tools, era: latest.current.era }),
    });
    editor.addCommand(monaco.KeyMod.CtrlCmd | monaco.KeyCode.Enter, () => latest.current.onSend?.());
    editor.addCommand(monaco.KeyMod.CtrlCmd | monaco.KeyCode.KeyK, () => latest.current.onCommandPalette?.());
    // Shift+Alt+F formats everywhere, as the help says: Monaco binds Format Document to Ctrl+Shift+I on Linux.
    editor.addCommand(monaco.KeyMod.Shift | monaco.KeyMod.Alt | monaco.KeyCode.KeyF, () => {
      void editor.getAction("editor.action.formatDocument")?.run();
    });
    setMounted(true);
    latest.current.onReady?.({
      focus: () => editor.focus(),
      takeOver(from) {
        const model = editor.getModel();
        if (!model) return;
        // Normally equal already (both show `value`); an edit keeps Monaco's undo stack and the change event.
        if (model.getValue() !== from.text) editor.executeEdits("handover", [{ range: model.getFullModelRange(), text: from.text }]);
        const start = positionIn(from.text, from.selectionStart);
        const end = positionIn(from.text, from.selectionEnd);
        const [anchor, caret] = from.backward ? [end, start] : [start, end];
        editor.setSelection(new monaco.Selection(anchor.lineNumber, anchor.column, caret.lineNumber, caret.column));
        // Same line height in both stages, so the same scroll offset shows the same lines.
        editor.setScrollTop(from.scrollTop);
        editor.revealPositionInCenterIfOutsideViewport({ lineNumber: caret.lineNumber, column: caret.column });
        if (from.focus) editor.focus();
      },
    });
  };

  return (
    <div className={className} style={{ height }}>
      <Editor
        path={REQUEST_MODEL_URI}
        language={JSON_LANGUAGE_ID}
        defaultValue={value}
        theme={theme}
        onChange={(text) => {
          const t = text ?? "";
          if (reported.current.length >= MAX_UNECHOED) reported.current.shift();
          reported.current.push(t);
          onChange(t);
        }}
        beforeMount={() => registerJsonLanguage(monaco)}
        onMount={handleMount}
        // The loader's textarea covers this box until onReady: nothing to show meanwhile.
        loading={null}
        options={{
          ariaLabel: EDITOR_ARIA_LABEL,
          readOnly,
          minimap: { enabled: false },
          fontFamily: EDITOR_FONT_FAMILY,
          fontSize: EDITOR_FONT_SIZE,
          lineHeight: EDITOR_LINE_HEIGHT,
          tabSize: 2,
          insertSpaces: true,
          scrollBeyondLastLine: false,
          automaticLayout: true,
          fixedOverflowWidgets: true,
          wordBasedSuggestions: "off",
          quickSuggestions: { strings: true, other: true, comments: false },
          formatOnPaste: true,
          renderLineHighlight: "line",
          lineNumbersMinChars: 3,
        }}
      />
    </div>
  );
}

export default JsonEditor;
