"use client";

import type { Tool } from "@/lib/mcp/contract";
import { RawJsonView } from "./RawJsonView";
import { RenderedResult } from "./RenderedResult";
import { ResultTabs } from "./ResultTabs";
import { isObject } from "@/lib/json/guards";

/** A response that arrived inside a share link: shown for reference, clearly not something sent from here. */
export function SharedResponseView({
  response,
  tools,
  request,
  note,
}: {
  response: unknown;
  tools: Tool[];
  request: string;
  note?: string;
}) {
  let method: string | undefined;
  let toolName: unknown;
  try {
    const msg = JSON.parse(request) as { method?: unknown; params?: { name?: unknown } };
    method = typeof msg.method === "string" ? msg.method : undefined;
    toolName = msg.params?.name;
  } catch {
    method = undefined;
  }
  const tool = method === "tools/call" ? tools.find((t) => t.name === toolName) : undefined;
  return (
    <div className="space-y-2" data-testid="shared-response">
      <p className="rounded-md bg-sky-50 px-3 py-2 text-sm text-sky-900 dark:bg-sky-950/50 dark:text-sky-200">
        {note ?? "This response came with the share link; nothing was sent from here. Press Send to run the request yourself."}
      </p>
      <ResultTabs
        testId="shared-result-tabs"
        tabs={[
          {
            id: "rendered",
            label: "Rendered",
            content: isObject(response) ? (
              <RenderedResult response={response} method={method} tool={tool} />
            ) : (
              <RawJsonView value={response} />
            ),
          },
          { id: "json", label: "JSON", content: <RawJsonView value={response} /> },
        ]}
      />
    </div>
  );
}
