/** Props: `value` any JSON value; `label` the key shown for it; `depth` how deep it sits (deep nodes start collapsed). */
export function JsonTree({ value, label, depth = 0 }: { value: unknown; label?: string; depth?: number }) {
  const key = label !== undefined ? <span className="text-accent-700 dark:text-accent-100">{label}: </span> : null;
  if (value === null || typeof value !== "object") {
    const cls =
      typeof value === "string"
        ? "text-emerald-700 dark:text-emerald-400"
        : typeof value === "number"
          ? "text-amber-700 dark:text-amber-400"
          : "text-fuchsia-700 dark:text-fuchsia-400";
    return (
      <div className="break-all pl-4">
        {key}
        <span className={cls}>{JSON.stringify(value)}</span>
      </div>
    );
  }
  const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value);
  const summary = Array.isArray(value) ? `[${entries.length}]` : `{${entries.length}}`;
  return (
    <details open={depth < 2} className="pl-4">
      <summary className="cursor-pointer select-none">
        {key}
        <span className="text-zinc-500">{summary}</span>
      </summary>
      {entries.map(([k, v]) => (
        <JsonTree key={k} label={k} value={v} depth={depth + 1} />
      ))}
    </details>
  );
}
