"use client";

import { useMemo, useState } from "react";
import { MAX_RAW_JSON_CHARS, truncateText } from "@/lib/playground/notifications";
import { downloadText } from "../library/download";

/** The raw response, pretty-printed; past {@link MAX_RAW_JSON_CHARS} it is cut, with "show all" and a download. */
export function RawJsonView({ value, fileName = "response.json" }: { value: unknown; fileName?: string }) {
  const text = useMemo(() => JSON.stringify(value, null, 2) ?? "null", [value]);
  const [all, setAll] = useState(false);
  const { shown, cut } = all ? { shown: text, cut: 0 } : truncateText(text);
  const download = () => downloadText(fileName, text);
  return (
    <div>
      {(cut > 0 || all) && text.length > MAX_RAW_JSON_CHARS && (
        <div className="mb-2 flex flex-wrap items-center gap-2 text-xs" data-testid="raw-json-truncated">
          <span className="text-zinc-600 dark:text-zinc-400">
            {cut > 0
              ? `Showing the first ${MAX_RAW_JSON_CHARS.toLocaleString("en")} of ${text.length.toLocaleString("en")} characters.`
              : `${text.length.toLocaleString("en")} characters.`}
          </span>
          {cut > 0 && (
            <button type="button" onClick={() => setAll(true)} className="underline">
              Show all
            </button>
          )}
          <button type="button" onClick={download} className="underline">
            Download
          </button>
        </div>
      )}
      <pre
        data-testid="raw-json"
        tabIndex={0}
        className="max-h-[70vh] overflow-auto rounded bg-zinc-50 p-3 font-mono text-xs dark:bg-zinc-900"
      >
        {shown}
        {cut > 0 ? "\n…" : ""}
      </pre>
    </div>
  );
}
