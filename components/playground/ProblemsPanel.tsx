import type { EditorDiagnostic } from "@/lib/editor/request-diagnostics";

const ICON: Record<EditorDiagnostic["severity"], string> = { error: "✕", warning: "!", info: "i" };

/** The editor's diagnostics as a list. Props: `diagnostics`. */
export function ProblemsPanel({ diagnostics }: { diagnostics: EditorDiagnostic[] }) {
  if (diagnostics.length === 0)
    return (
      <p className="mt-2 text-xs text-emerald-700 dark:text-emerald-400" data-testid="problems-none">
        No problems found.
      </p>
    );
  return (
    <ul className="mt-2 space-y-1 text-xs" data-testid="problems" aria-label="Problems">
      {diagnostics.map((d, i) => (
        <li key={i} className="flex gap-2">
          <span
            aria-hidden
            className={d.severity === "error" ? "text-red-600" : d.severity === "warning" ? "text-amber-600" : "text-sky-600"}
          >
            {ICON[d.severity]}
          </span>
          <span>
            <span className="sr-only">{d.severity}: </span>
            {d.message} <span className="text-zinc-500">({d.source})</span>
          </span>
        </li>
      ))}
    </ul>
  );
}
