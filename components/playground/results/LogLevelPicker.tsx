import { useId } from "react";
import type { Era } from "@/lib/mcp/contract";
import { LOG_LEVELS, type LogLevelChoice } from "@/lib/playground/notifications";

/** Props for {@link LogLevelPicker}. */
interface Props {
  era: Era;
  value: LogLevelChoice;
  onChange: (level: LogLevelChoice) => void;
  /** Still connecting: shown (so the toolbar does not move when the era is known) but not yet choosable. */
  pending?: boolean;
}

/**
 * The per-request log level the playground asks for (2026-07-28 `_meta` io.modelcontextprotocol/logLevel), compact, for
 * the request toolbar beside Send: `debug` by default (lib/playground/stores/prefs-store.ts says why). Legacy servers set their
 * level per session with `logging/setLevel`, so the picker is off for them and says so.
 */
export function LogLevelPicker({ era, value, onChange, pending = false }: Props) {
  const legacy = era !== "modern";
  const hintId = useId();
  const hint = legacy
    ? "Legacy servers choose their log level per session: send logging/setLevel (a template) to pick one."
    : "Server log messages (notifications/message) at this level and above, asked per request in _meta; shown with the result.";
  return (
    <label className="flex items-center gap-1 text-xs text-zinc-600 dark:text-zinc-400" title={hint}>
      Logs
      <select
        value={legacy ? "off" : value}
        disabled={legacy || pending}
        onChange={(e) => onChange(e.target.value as LogLevelChoice)}
        aria-describedby={hintId}
        data-testid="pref-log-level"
        className="rounded border border-zinc-300 bg-white py-1 pl-1 pr-0.5 text-xs disabled:opacity-60 dark:border-zinc-700 dark:bg-zinc-900"
      >
        <option value="off">off</option>
        {LOG_LEVELS.map((l) => (
          <option key={l} value={l}>
            {l}
          </option>
        ))}
      </select>
      <span id={hintId} className="sr-only">
        {hint}
      </span>
    </label>
  );
}
