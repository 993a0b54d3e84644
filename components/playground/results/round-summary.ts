import { classifyResponse } from "@/lib/mcp/response-kind";
import type { Round } from "../useExchangeRunner";

/** A short verdict for a round: "input_required (confirm)", "result", "tool error", "error -32602"… */
export function roundSummary(round: Round): string {
  if (round.outcome.kind === "proxy-error") return `not sent: ${round.outcome.error.kind}`;
  const response = round.outcome.rpc.response;
  if (!response) return "no response";
  const kind = classifyResponse(response, typeof round.message.method === "string" ? round.message.method : undefined);
  switch (kind.kind) {
    case "input-required":
      return `input_required (${Object.keys(kind.inputRequests).join(", ") || "requestState only"})`;
    case "rpc-error":
      return `error ${Number.isNaN(kind.code) ? "" : kind.code} ${kind.title}`.trim();
    case "tool-error":
      return "tool error";
    case "invalid":
      return "invalid response";
    default:
      return "result";
  }
}
