import type { Era } from "@/lib/mcp/contract";
import { LOG_LEVELS, type LogLevelChoice } from "@/lib/playground/notifications";

/** Props for {@link LogLevelPicker}. */
interface Props {
  era: Era;
  value: LogLevelChoice;
  onChange: (level: LogLevelChoice) => void;
}

/**
 * The per-request log level the playground asks for (2026-07-28 `_meta` io.modelcontextprotocol/logLevel): off by
 * default, so a request goes out as written. Legacy servers set their level per session with `logging/setLevel`.
 */
export function LogLevelPicker({ era, value, onChange }: Props) {
  const legacy = era !== "modern";
  return (
    <label className="mt-2 flex flex-wrap items-center gap-2 text-xs text-zinc-600 dark:text-zinc-400">
      Server log messages
      <select
        value={legacy ? "off" : value}
        disabled={legacy}
        onChange={(e) => onChange(e.target.value as LogLevelChoice)}
        data-testid="pref-log-level"
        className="rounded border border-zinc-300 bg-white px-1.5 py-0.5 text-xs disabled:opacity-60 dark:border-zinc-700 dark:bg-zinc-900"
      >
        <option value="off">off</option>
        {LOG_LEVELS.map((l) => (
          <option key={l} value={l}>
            {l} and above
          </option>
        ))}
      </select>
      <span className="text-zinc-500">
        {legacy ? "legacy servers: send logging/setLevel (a template) to choose a level" : "asked per request in _meta"}
      </span>
    </label>
  );
}
