/**
 * The one place Monaco meets the pure editor logic: EditorDiagnostic[] → markers, and completion/hover
 * providers for our request model that call completions.ts / hover.ts. Client-only (imports Monaco types;
 * the Monaco instance itself is passed in so this module never evaluates Monaco).
 */
import type * as Monaco from "monaco-editor/editor";
import { completionsAt, type CompletionKind } from "./completions.ts";
import { hoverAt } from "./hover.ts";
import type { DiagnosticContext, EditorDiagnostic } from "./request-diagnostics.ts";

export type MonacoApi = typeof Monaco;

/** Marker owner for our diagnostics (every marker in the request editor is ours: there is no JSON worker). */
export const MARKER_OWNER = "toolscope";

/** Convert diagnostics to Monaco markers, using the model for offset → line/column. */
export function toMarkers(
  monaco: MonacoApi,
  model: Monaco.editor.ITextModel,
  diags: readonly EditorDiagnostic[],
): Monaco.editor.IMarkerData[] {
  return diags.map((d) => {
    const start = model.getPositionAt(d.offset);
    const end = model.getPositionAt(d.offset + d.length);
    return {
      severity:
        d.severity === "error"
          ? monaco.MarkerSeverity.Error
          : d.severity === "warning"
            ? monaco.MarkerSeverity.Warning
            : monaco.MarkerSeverity.Info,
      message: d.message,
      source: d.source,
      code: d.code,
      startLineNumber: start.lineNumber,
      startColumn: start.column,
      endLineNumber: end.lineNumber,
      endColumn: end.column,
    };
  });
}

export interface EditorSupportOptions {
  /** The model URI the providers answer for, e.g. `inmemory://toolscope/request.json`. */
  modelUri: string;
  /** Read on every request, so the providers always see the current tools and era. */
  getContext: () => DiagnosticContext;
  owner?: string;
}

export interface EditorSupport {
  /** Replace our markers on `model`. */
  setDiagnostics(model: Monaco.editor.ITextModel, diags: readonly EditorDiagnostic[]): void;
  /** Unregister the providers and clear our markers. */
  dispose(): void;
}

function completionKind(monaco: MonacoApi, kind: CompletionKind): Monaco.languages.CompletionItemKind {
  const K = monaco.languages.CompletionItemKind;
  switch (kind) {
    case "method":
      return K.Method;
    case "tool":
      return K.Function;
    case "property":
      return K.Property;
    case "meta":
      return K.Field;
    case "value":
      return K.Value;
  }
}

function rangeOf(monaco: MonacoApi, model: Monaco.editor.ITextModel, offset: number, length: number): Monaco.Range {
  const s = model.getPositionAt(offset);
  const e = model.getPositionAt(offset + length);
  return new monaco.Range(s.lineNumber, s.column, e.lineNumber, e.column);
}

/** Register completion + hover providers for language json, answering only for `modelUri`. */
export function attachEditorSupport(monaco: MonacoApi, options: EditorSupportOptions): EditorSupport {
  const owner = options.owner ?? MARKER_OWNER;
  const uri = monaco.Uri.parse(options.modelUri).toString();
  const ours = (model: Monaco.editor.ITextModel) => model.uri.toString() === uri;
  const markedModels = new Set<Monaco.editor.ITextModel>();

  const completion = monaco.languages.registerCompletionItemProvider("json", {
    triggerCharacters: ['"', ":", " "],
    provideCompletionItems(model, position) {
      if (!ours(model)) return { suggestions: [] };
      const items = completionsAt(model.getValue(), model.getOffsetAt(position), options.getContext());
      return {
        suggestions: items.map((item) => ({
          // As the label's description, the type shows on every row; Monaco shows `detail` for the focused row only.
          label: item.detail ? { label: item.label, description: item.detail } : item.label,
          kind: completionKind(monaco, item.kind),
          insertText: item.insertText,
          insertTextRules: item.snippet ? monaco.languages.CompletionItemInsertTextRule.InsertAsSnippet : undefined,
          filterText: item.filterText,
          sortText: item.sortText,
          detail: item.detail,
          documentation: item.documentation ? { value: item.documentation } : undefined,
          range: rangeOf(monaco, model, item.range.offset, item.range.length),
        })),
      };
    },
  });

  const hover = monaco.languages.registerHoverProvider("json", {
    provideHover(model, position) {
      if (!ours(model)) return null;
      const h = hoverAt(model.getValue(), model.getOffsetAt(position), options.getContext());
      if (!h) return null;
      // Tool descriptions are untrusted: plain Markdown, no HTML, no command links (isTrusted stays false).
      return { contents: [{ value: h.markdown, supportHtml: false }], range: rangeOf(monaco, model, h.range.offset, h.range.length) };
    },
  });

  return {
    setDiagnostics(model, diags) {
      if (model.isDisposed()) return;
      monaco.editor.setModelMarkers(model, owner, toMarkers(monaco, model, diags));
      markedModels.add(model);
    },
    dispose() {
      completion.dispose();
      hover.dispose();
      for (const m of markedModels) if (!m.isDisposed()) monaco.editor.setModelMarkers(m, owner, []);
      markedModels.clear();
    },
  };
}
