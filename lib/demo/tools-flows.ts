/**
 * Multi-step tools: `purge_closed_issues` asks the user to confirm through a form elicitation
 * (MRTR `input_required` on 2026-07-28; the SDK's legacy shim turns the same return into a
 * server→client `elicitation/create` on 2025-era sessions), and `reindex` reports progress.
 */
import {
  CLIENT_CAPABILITIES_META_KEY,
  createRequestStateCodec,
  inputRequired,
  inputResponse,
  type ClientCapabilities,
  type ElicitRequestFormParams,
  type RequestStateCodec,
  type ServerContext,
} from "@modelcontextprotocol/server";
import { randomBytes } from "node:crypto";
import * as z from "zod";
import { ICONS } from "./icons.ts";
import { countClosedIssues, listIssues, purgeClosedIssues } from "./issue-store.ts";
import { lazy, text, toolError, type DemoToolContext } from "./tool-kit.ts";

/** What the purge confirmation round-trips through the client; sealed so it cannot be forged. */
interface PurgeState {
  tool: "purge_closed_issues";
  closed: number;
}

/**
 * HMAC codec for `requestState`. The key is per process: the demo is one process, and a restart
 * forgets the store anyway, so a confirmation minted before a restart is correctly refused.
 */
export const purgeStateCodec: () => RequestStateCodec<PurgeState> = lazy(() =>
  createRequestStateCodec<PurgeState>({ key: randomBytes(32), ttlSeconds: 600 }),
);

const CONFIRM_SCHEMA: ElicitRequestFormParams["requestedSchema"] = {
  type: "object",
  properties: {
    confirm: {
      type: "boolean",
      title: "Delete all closed issues",
      description: "Tick to permanently delete every closed issue.",
      default: false,
    },
    reason: { type: "string", title: "Reason (optional)", description: "Why the purge is needed; recorded in the result.", maxLength: 200 },
  },
  required: ["confirm"],
};

/** Whether the caller can show a form elicitation: per request on 2026-07-28, from initialize on 2025 sessions. */
function canElicit(ctx: ServerContext, era: DemoToolContext["era"], declared: ClientCapabilities | undefined): boolean {
  const caps =
    era === "modern"
      ? ((ctx.mcpReq.envelope as Record<string, unknown> | undefined)?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined)
      : declared;
  const elicitation = caps?.elicitation as Record<string, unknown> | undefined;
  // An empty elicitation capability means form mode (spec back-compat); otherwise form must be listed.
  return elicitation !== undefined && (Object.keys(elicitation).length === 0 || elicitation.form !== undefined);
}

const MAX_STEPS = 20;
export const REINDEX_STEP_MS = 200;

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });
}

export function registerFlowTools({ server, era, track }: DemoToolContext): void {
  track(
    "purge_closed_issues",
    server.registerTool(
      "purge_closed_issues",
      {
        title: "Purge closed issues",
        description:
          "Permanently deletes every closed issue in one go, after asking the user to confirm in a form. Use it only when the user explicitly asks to clean up closed issues; use delete_issue for a single issue. Returns how many issues were deleted, or that nothing was deleted because the user declined.",
        inputSchema: z.object({}),
        annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
        icons: [...ICONS.trash],
      },
      async (_args, ctx) => {
        const closed = countClosedIssues();
        if (closed === 0) return text("There are no closed issues; nothing was deleted.");

        const answer = inputResponse(ctx.mcpReq.inputResponses, "confirm");
        const state = ctx.mcpReq.requestState<PurgeState>();
        if (answer.kind === "elicit" && state?.tool === "purge_closed_issues") {
          if (answer.action !== "accept")
            return text(`Nothing was deleted: the user ${answer.action === "decline" ? "declined" : "cancelled"} the confirmation.`);
          if (answer.content?.confirm !== true) return text("Nothing was deleted: the confirmation box was not ticked.");
          const reason =
            typeof answer.content.reason === "string" && answer.content.reason.trim()
              ? ` Reason: ${answer.content.reason.trim().slice(0, 200)}`
              : "";
          const deleted = purgeClosedIssues();
          return text(`Deleted ${deleted} closed issue${deleted === 1 ? "" : "s"}.${reason}`);
        }

        if (!canElicit(ctx, era, server.server.getClientCapabilities())) {
          return toolError(
            `Purging ${closed} closed issues needs the user's confirmation, but this client did not declare the elicitation capability, so it cannot show a confirmation form. Ask the user to confirm in a client that supports elicitation, or delete issues one by one with delete_issue.`,
          );
        }
        return inputRequired({
          inputRequests: {
            confirm: inputRequired.elicit({
              mode: "form",
              message: `Permanently delete ${closed} closed issue${closed === 1 ? "" : "s"}? This cannot be undone.`,
              requestedSchema: CONFIRM_SCHEMA,
            }),
          },
          requestState: await purgeStateCodec().mint({ tool: "purge_closed_issues", closed }),
        });
      },
    ),
  );

  track(
    "reindex",
    server.registerTool(
      "reindex",
      {
        title: "Rebuild search index",
        description: `Rebuilds the search index in a number of steps (about ${REINDEX_STEP_MS} ms each), reporting progress after every step and logging what it does. Search keeps working meanwhile, so call it only when the user asks for a reindex. Returns how many documents were indexed.`,
        inputSchema: z.object({
          steps: z.number().int().min(1).max(MAX_STEPS).default(5).describe(`Number of index shards to rebuild (1-${MAX_STEPS}).`),
        }),
        annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      },
      async ({ steps }, ctx) => {
        const token = ctx.mcpReq._meta?.progressToken;
        const log = (message: string) => ctx.mcpReq.log("info", message, "reindex").catch(() => undefined);
        await log(`Reindex started: ${steps} shards.`);
        for (let step = 1; step <= steps; step++) {
          await sleep(REINDEX_STEP_MS, ctx.mcpReq.signal);
          if (ctx.mcpReq.signal.aborted) return toolError(`Reindex cancelled after ${step - 1} of ${steps} shards.`);
          if (token !== undefined) {
            await ctx.mcpReq.notify({
              method: "notifications/progress",
              params: { progressToken: token, progress: step, total: steps, message: `Shard ${step}/${steps} rebuilt` },
            });
          }
          await log(`Shard ${step}/${steps} rebuilt.`);
        }
        return text(`Reindex complete: ${steps} shards rebuilt, ${listIssues().length} issues indexed.`);
      },
    ),
  );
}
