/**
 * A tool list that changes at run time, so `subscriptions/listen` has something to report:
 * `toggle_beta_tools` adds or removes the beta tools (today `beta_summarize_issue`) for every
 * client at once, and each change is announced as `notifications/tools/list_changed`.
 *
 * The switch is process-wide and kept on `globalThis`: Next.js loads route handlers and pages
 * through separate module graphs, and both must agree on what the demo lists.
 */
import type { McpServer, RegisteredTool } from "@modelcontextprotocol/server";
import * as z from "zod";
import { getIssue } from "./issue-store.ts";
import { processSingleton } from "../runtime/process-singleton.ts";
import { storeCall, structured, text, toolError, type DemoToolContext } from "./tool-kit.ts";

export const BETA_TOOL_NAMES = ["beta_summarize_issue"] as const;

interface BetaState {
  enabled: boolean;
  listeners: Set<(enabled: boolean) => void>;
}

function state(): BetaState {
  return processSingleton<BetaState>("demo.beta-tools", () => ({ enabled: false, listeners: new Set() }));
}

/** Whether the beta tools are currently listed. */
export function betaToolsEnabled(): boolean {
  return state().enabled;
}

/** Turns the beta tools on or off; listeners hear only real changes. Returns whether anything changed. */
export function setBetaToolsEnabled(enabled: boolean): boolean {
  const s = state();
  if (s.enabled === enabled) return false;
  s.enabled = enabled;
  for (const listener of [...s.listeners]) {
    try {
      listener(enabled);
    } catch {
      // A broken listener (a closed handler) must not stop the others or fail the toggle.
    }
  }
  return true;
}

/** Calls `listener` after every change of the switch; returns the unsubscribe function. */
export function onBetaToolsChanged(listener: (enabled: boolean) => void): () => void {
  const s = state();
  s.listeners.add(listener);
  return () => void s.listeners.delete(listener);
}

/** The beta tools each server instance registered, so a long-lived (legacy session) instance can follow the switch. */
const betaToolsOf = new WeakMap<McpServer, RegisteredTool[]>();

/**
 * Brings one server instance's beta tools in line with the switch. On a connected legacy session the
 * SDK then sends `notifications/tools/list_changed` itself (on its standalone GET stream, when open).
 */
export function syncBetaTools(server: McpServer): void {
  const enabled = betaToolsEnabled();
  for (const tool of betaToolsOf.get(server) ?? []) {
    if (tool.enabled !== enabled) {
      if (enabled) tool.enable();
      else tool.disable();
    }
  }
}

const ToggleInput = z.object({
  enabled: z.boolean().optional().describe("true to add the beta tools, false to remove them. Omit to flip the current state."),
});

const ToggleOutput = z.object({
  enabled: z.boolean().describe("Whether the beta tools are listed now."),
  changed: z.boolean().describe("false when they already were in the requested state (no list_changed is sent)."),
  beta_tools: z.array(z.string()).describe("The tools this switch adds and removes."),
});

export function registerBetaTools({ server, track }: DemoToolContext): void {
  track(
    "toggle_beta_tools",
    server.registerTool(
      "toggle_beta_tools",
      {
        title: "Toggle beta tools",
        description: `Adds or removes the beta tools (${BETA_TOOL_NAMES.join(", ")}) from this server's tool list, for every client at once. Clients listening with subscriptions/listen receive notifications/tools/list_changed when the list changes. Returns whether the beta tools are listed afterwards.`,
        inputSchema: ToggleInput,
        outputSchema: ToggleOutput,
        annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
      },
      async ({ enabled }) => {
        const target = enabled ?? !betaToolsEnabled();
        const changed = setBetaToolsEnabled(target);
        return structured({ enabled: target, changed, beta_tools: [...BETA_TOOL_NAMES] });
      },
    ),
  );

  const summarize = server.registerTool(
    "beta_summarize_issue",
    {
      title: "Summarize issue (beta)",
      description:
        "Summarizes one issue in a single line: id, title, status, owner and the first sentence of its body. A beta tool: it is listed only while toggle_beta_tools has it switched on. Use get_issue when you need the full issue.",
      inputSchema: z.object({ issue_id: z.number().int().min(1).describe("The numeric issue id, e.g. 2 (from search_issues).") }),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ issue_id }) =>
      storeCall(() => {
        const issue = getIssue(issue_id);
        if (!issue) return toolError(`Issue ${issue_id} does not exist; find ids with search_issues.`);
        const owner =
          issue.assignee === null
            ? "unassigned"
            : issue.assignee.kind === "user"
              ? `assigned to ${issue.assignee.userId}`
              : `assigned to team ${issue.assignee.team}`;
        const firstSentence = issue.body.split(/(?<=[.!?])\s/)[0] ?? "";
        return text(`#${issue.id} ${issue.title} (${issue.status}, ${owner})${firstSentence ? `: ${firstSentence}` : ""}`);
      }),
  );
  track("beta_summarize_issue", summarize);
  betaToolsOf.set(server, [summarize]);
  syncBetaTools(server);
}
