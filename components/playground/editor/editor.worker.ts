/** Monaco editor worker (diffing, links…), bundled by Next from node_modules (no CDN). See JsonEditor.tsx. */
import "monaco-editor/editor/editor.worker";
