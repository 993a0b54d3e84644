/**
 * Tests only: a collection whose third call needs input the file does not prepare — the demo's purge asks for
 * confirmation (MRTR on 2026-07-28) — and whose fourth has its answer prepared. The playground asks the person for
 * the third; `toolscope test` has nobody to ask and ends it as "needs input".
 */
import type { Collection } from "../format.ts";

export function purgeCollection(): Collection {
  const purge = { method: "tools/call", params: { name: "purge_closed_issues", arguments: {} } };
  return {
    format: "toolscope.collection/1",
    name: "Purge",
    calls: [
      {
        name: "create one",
        request: { method: "tools/call", params: { name: "create_issue", arguments: { title: "to purge" } } },
        expect: [{ kind: "no-error" }],
        capture: { id: "/result/content/0/text/id" },
      },
      {
        name: "close it",
        request: { method: "tools/call", params: { name: "close_issue", arguments: { issue_id: "{{id}}" } } },
        expect: [{ kind: "is-error", value: false }],
      },
      { name: "purge, asked", request: purge, expect: [{ kind: "no-error" }] },
      {
        name: "purge, prepared",
        request: purge,
        answers: { confirm: { action: "accept", content: { confirm: true } } },
        expect: [{ kind: "text-matches", pattern: "^Deleted \\d+ closed issues?\\.$" }],
      },
    ],
  };
}
