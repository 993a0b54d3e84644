/** Monaco JSON language worker, bundled by Next from node_modules (no CDN). See JsonEditor.tsx. */
import "monaco-editor/language/json/json.worker";
