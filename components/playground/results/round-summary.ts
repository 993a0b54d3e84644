import { classifyResponse } from "@/lib/mcp/response-kind";
import type { Round } from "../useExchangeRunner";

/** A short verdict for a round: "input_required (confirm)", "result", "tool error", "error -32602"… */
export function roundSummary(round: Round): string {
  if (round.outcome.kind === "proxy-error") return `not sent: ${round.outcome.error.kind}`;
  const response = round.outcome.rpc.response;
  if (!response) return "no response";
  const method = typeof round.message.method === "string" ? round.message.method : undefined;
  if (method?.startsWith("tasks/") && !("error" in response)) return taskRoundSummary(method, response);
  const kind = classifyResponse(response, method);
  switch (kind.kind) {
    case "input-required":
      return `input_required (${Object.keys(kind.inputRequests).join(", ") || "requestState only"})`;
    case "rpc-error":
      return `error ${Number.isNaN(kind.code) ? "" : kind.code} ${kind.title}`.trim();
    case "tool-error":
      return "tool error";
    case "invalid":
      return "invalid response";
    case "task":
      return "task created";
    default:
      return "result";
  }
}

/** A task round: the method's verb and the status it saw ("poll: working", "answered", "cancel sent"). */
function taskRoundSummary(method: string, response: Record<string, unknown>): string {
  const result = (typeof response.result === "object" && response.result !== null ? response.result : {}) as Record<string, unknown>;
  const task = (typeof result.task === "object" && result.task !== null ? result.task : result) as Record<string, unknown>;
  const status = typeof task.status === "string" ? task.status : undefined;
  if (method === "tasks/get") return `poll: ${status ?? "no status"}`;
  if (method === "tasks/update") return "answers sent";
  if (method === "tasks/cancel") return status ? `cancel: ${status}` : "cancel sent";
  return "task result";
}
