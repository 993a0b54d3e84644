import type { EditorDiagnostic } from "@/lib/editor/request-diagnostics";
import { lineColumn, STILL_SENDABLE } from "@/lib/playground/playground-state";

const ICON: Record<EditorDiagnostic["severity"], string> = { error: "✕", warning: "!", info: "i" };

/** The editor's diagnostics as a list, each with its line and column in `text` (the text they were computed for). */
export function ProblemsPanel({ diagnostics, text }: { diagnostics: EditorDiagnostic[]; text?: string }) {
  if (diagnostics.length === 0)
    return (
      <p className="mt-2 text-xs text-emerald-700 dark:text-emerald-400" data-testid="problems-none">
        No problems found.
      </p>
    );
  return (
    <ul className="mt-2 space-y-1 text-xs" data-testid="problems" aria-label="Problems">
      {diagnostics.map((d, i) => {
        const at = text === undefined ? undefined : lineColumn(text, d.offset);
        return (
          <li key={i} className="flex gap-2">
            <span
              aria-hidden
              className={d.severity === "error" ? "text-red-600" : d.severity === "warning" ? "text-amber-600" : "text-sky-600"}
            >
              {ICON[d.severity]}
            </span>
            <span>
              <span className="sr-only">{d.severity}: </span>
              {at && <span className="text-zinc-500">{`Line ${at.line}, column ${at.column}: `}</span>}
              {d.message} <span className="text-zinc-500">({d.source})</span>
            </span>
          </li>
        );
      })}
    </ul>
  );
}

/**
 * The line under the editor: a text Send refuses says so in Send's own words (`blocked`: what, where, not sent until
 * fixed), as an alert once a Send was refused; otherwise the number of problems and that the request can still be sent.
 */
export function SendStatusLine({ blocked, errors, refused }: { blocked: string | null; errors: number; refused: boolean }) {
  if (blocked !== null)
    return (
      <p
        role={refused ? "alert" : undefined}
        data-testid="send-blocked"
        className={`mt-1 text-xs ${refused ? "font-medium text-red-700 dark:text-red-400" : "text-amber-700 dark:text-amber-400"}`}
      >
        {refused ? "Not sent. " : ""}
        {blocked}
      </p>
    );
  if (errors === 0) return null;
  return (
    <p className="mt-1 text-xs text-amber-700 dark:text-amber-400" data-testid="send-still-possible">
      This request has {errors} problem{errors === 1 ? "" : "s"}; {STILL_SENDABLE}.
    </p>
  );
}
