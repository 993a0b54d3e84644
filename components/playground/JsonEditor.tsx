"use client";

/**
 * The request editor: Monaco from our own bundle (never a CDN), with MCP-aware diagnostics, completions
 * and hovers from lib/editor. Load it through JsonEditorLoader (next/dynamic, ssr:false), never directly
 * from server-rendered code: importing this module evaluates Monaco, which needs `window`.
 *
 * Who reports what: the JSON worker reports syntax errors as markers (it is configured below with
 * `validate: true, allowComments: false, trailingCommas: "error"`); our diagnoseRequest reports the
 * JSON-RPC/MCP/arguments problems. Our own syntax diagnostics (source "json") are NOT turned into markers,
 * so a syntax error is underlined once, but they are still passed to `onDiagnostics` for the problems list.
 */
import { useEffect, useRef, useState } from "react";
import * as monaco from "monaco-editor/editor";
import "monaco-editor/features/register.all";
import { jsonDefaults } from "monaco-editor/languages/features/json/register";
import Editor, { loader, type OnMount } from "@monaco-editor/react";
import type { Era, Tool } from "@/lib/mcp/contract";
import { attachEditorSupport, type EditorSupport } from "@/lib/editor/monaco-adapter";
import { diagnoseRequest, type EditorDiagnostic } from "@/lib/editor/request-diagnostics";
import { FOCUS_HOME_ATTR } from "./useModalDialog";

/** The request model's URI: providers answer only for this model. */
export const REQUEST_MODEL_URI = "inmemory://toolscope/request.json";

/** How long typing must pause before diagnostics run. */
const DIAGNOSTICS_DELAY_MS = 150;

// ---- module scope: runs once, before any <Editor> mounts ----

// Workers come from local wrapper files so the bundler emits real worker entries (turbopack otherwise
// emits Monaco's editor worker as an unbundled asset that fails to load).
globalThis.MonacoEnvironment = {
  getWorker(_workerId: string, label: string) {
    if (label === "json") return new Worker(new URL("./json.worker.ts", import.meta.url), { type: "module" });
    return new Worker(new URL("./editor.worker.ts", import.meta.url), { type: "module" });
  },
};

// Without this, @monaco-editor/react injects a loader script from jsDelivr.
loader.config({ monaco });

// The JSON worker: syntax only. Schema problems are ours (ajv, MCP-aware), completions and hovers too.
jsonDefaults.setDiagnosticsOptions({
  validate: true,
  allowComments: false,
  trailingCommas: "error",
  enableSchemaRequest: false,
  schemaValidation: "ignore",
  schemas: [],
});
jsonDefaults.setModeConfiguration({ ...jsonDefaults.modeConfiguration, completionItems: false, hovers: false });

function isDark(): boolean {
  return document.documentElement.classList.contains("dark");
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

/** Monaco-based JSON-RPC request editor with MCP diagnostics. */
export function JsonEditor({
  value,
  onChange,
  tools,
  era,
  onSend,
  onCommandPalette,
  onDiagnostics,
  height = 320,
  className,
  readOnly,
}: JsonEditorProps) {
  const [theme, setTheme] = useState(() => (isDark() ? "vs-dark" : "vs"));
  const editorRef = useRef<monaco.editor.IStandaloneCodeEditor | null>(null);
  const supportRef = useRef<EditorSupport | null>(null);
  // Providers and commands are registered once; they read the latest props through this ref.
  const latest = useRef({ tools, era, onSend, onCommandPalette, onDiagnostics });
  useEffect(() => {
    latest.current = { tools, era, onSend, onCommandPalette, onDiagnostics };
  });
  const [mounted, setMounted] = useState(false);

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
      if (model && supportRef.current)
        supportRef.current.setDiagnostics(
          model,
          diagnostics.filter((d) => d.source !== "json"),
        );
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
    supportRef.current?.dispose();
    supportRef.current = attachEditorSupport(monaco, {
      modelUri: REQUEST_MODEL_URI,
      getContext: () => ({ tools: latest.current.tools, era: latest.current.era }),
    });
    editor.addCommand(monaco.KeyMod.CtrlCmd | monaco.KeyCode.Enter, () => latest.current.onSend?.());
    editor.addCommand(monaco.KeyMod.CtrlCmd | monaco.KeyCode.KeyK, () => latest.current.onCommandPalette?.());
    setMounted(true);
  };

  return (
    <div
      data-testid="request-editor"
      // Where the focus goes when a dialog's origin is gone (useModalDialog): the box passes it on to Monaco.
      {...(readOnly ? {} : { [FOCUS_HOME_ATTR]: "", tabIndex: -1 })}
      onFocus={(e) => {
        if (e.target === e.currentTarget) editorRef.current?.focus();
      }}
      className={`overflow-hidden rounded-md border border-zinc-200 dark:border-zinc-800 ${className ?? ""}`}
      style={{ height }}
    >
      <Editor
        path={REQUEST_MODEL_URI}
        language="json"
        value={value}
        theme={theme}
        onChange={(text) => onChange(text ?? "")}
        onMount={handleMount}
        loading={<div className="p-3 text-sm text-zinc-500">Loading editor…</div>}
        options={{
          ariaLabel: "JSON-RPC request (Ctrl+Enter or Cmd+Enter to send; Ctrl+M, on a Mac Ctrl+Shift+M, makes Tab leave the editor)",
          readOnly,
          minimap: { enabled: false },
          fontSize: 13,
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
