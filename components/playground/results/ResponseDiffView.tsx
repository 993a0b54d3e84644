import { diffJson, sideBySide } from "@/lib/playground/json-diff";

const ROW_CLASS = {
  same: "",
  removed: "bg-red-50 dark:bg-red-950/40",
  added: "bg-emerald-50 dark:bg-emerald-950/40",
  changed: "bg-amber-50 dark:bg-amber-950/40",
};

/** Two responses side by side, lines aligned, differences highlighted. Props: `left`/`right` values and their labels. */
export function ResponseDiffView({
  left,
  right,
  leftLabel,
  rightLabel,
}: {
  left: unknown;
  right: unknown;
  leftLabel: string;
  rightLabel: string;
}) {
  const rows = sideBySide(left, right);
  const changes = diffJson(left, right).length;
  return (
    <section data-testid="diff-view" aria-label="Response comparison" className="rounded-md border border-zinc-200 dark:border-zinc-800">
      <p
        className="border-b border-zinc-200 px-3 py-1.5 text-xs text-zinc-600 dark:border-zinc-800 dark:text-zinc-400"
        data-testid="diff-summary"
      >
        {changes === 0
          ? "The responses are identical (key order aside)."
          : `${changes} difference${changes === 1 ? "" : "s"} by JSON pointer.`}
      </p>
      <div className="max-h-[60vh] overflow-auto">
        <table className="w-full table-fixed border-collapse font-mono text-xs">
          <thead>
            <tr className="text-left text-zinc-500">
              <th scope="col" className="w-8" />
              <th scope="col" className="px-2 py-1 font-medium">
                {leftLabel}
              </th>
              <th scope="col" className="w-8" />
              <th scope="col" className="px-2 py-1 font-medium">
                {rightLabel}
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r, i) => (
              <tr key={i} data-kind={r.kind} className={ROW_CLASS[r.kind]}>
                <td className="select-none pr-1 text-right align-top text-zinc-400">{r.left?.n}</td>
                <td
                  className={`whitespace-pre-wrap break-all px-2 align-top ${r.kind === "removed" || r.kind === "changed" ? "text-red-800 dark:text-red-300" : ""}`}
                >
                  {r.left?.text}
                </td>
                <td className="select-none border-l border-zinc-200 pr-1 text-right align-top text-zinc-400 dark:border-zinc-800">
                  {r.right?.n}
                </td>
                <td
                  className={`whitespace-pre-wrap break-all px-2 align-top ${r.kind === "added" || r.kind === "changed" ? "text-emerald-800 dark:text-emerald-300" : ""}`}
                >
                  {r.right?.text}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
