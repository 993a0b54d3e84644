import { Client, type ServerCapabilities } from "@modelcontextprotocol/client";
import type { HttpExchange } from "@/lib/mcp/contract";
import { isObject } from "@/lib/json/guards";
import { ExchangeFailure } from "../../exchange/exchange-core.ts";
import { ProxyError } from "../../errors/proxy-error.ts";

/** Sends one JSON-RPC request and gives its answer with the exchanges that carried it (sendRpc, or /api/rpc's path). */
export type SkillSender = (
  message: Record<string, unknown>,
) => Promise<{ response: Record<string, unknown> | null; exchanges: HttpExchange[] }>;

/** What the wire needs besides the sender: what the server declared, and the list walk's bounds. */
export interface SkillsWireOptions {
  send: SkillSender;
  /** The server's capabilities (the discover result's on a modern connection, initialize's on a legacy one). */
  capabilities: Record<string, unknown>;
  protocolVersion: string;
  /** Pages of one walk read at most (TOOLSCOPE_MAX_TOOL_PAGES). */
  maxPages: number;
  /** When the walk must stop, in ms since the epoch (TOOLSCOPE_LIST_DEADLINE_MS from its start). */
  deadline: number;
  deadlineMs: number;
  now?: () => number;
}

/** A JSON-RPC error the server answered with: kept apart so a caller can tell "no such skill" (-32602) from the rest. */
export class SkillRpcError extends Error {
  constructor(
    readonly method: string,
    readonly code: number | undefined,
    readonly serverMessage: string,
  ) {
    super(`${method} failed: ${serverMessage.slice(0, 300)} (code ${code ?? "none"})`);
    this.name = "SkillRpcError";
  }
}

interface StandardResult {
  value?: unknown;
  issues?: ReadonlyArray<{ message: string; path?: ReadonlyArray<PropertyKey | { key: PropertyKey }> }>;
}
interface StandardSchemaLike {
  "~standard": { validate(value: unknown): StandardResult | Promise<StandardResult> };
}

function isStandardSchema(value: unknown): value is StandardSchemaLike {
  return isObject(value) && isObject(value["~standard"]) && typeof value["~standard"].validate === "function";
}

function issueText(issues: NonNullable<StandardResult["issues"]>): string {
  return issues
    .slice(0, 5)
    .map((i) => {
      const path = (i.path ?? []).map((p) => String(typeof p === "object" && p !== null && "key" in p ? p.key : p)).join(".");
      return path ? `${path}: ${i.message}` : i.message;
    })
    .join("; ");
}

/** resources/read's result as the SDK's own schema would take it: contents of text or base64 blobs, each with a URI. */
function readResultProblem(result: Record<string, unknown>): string | undefined {
  if (!Array.isArray(result.contents)) return "it has no contents array";
  for (const [i, c] of result.contents.entries()) {
    if (!isObject(c) || typeof c.uri !== "string") return `contents[${i}] has no uri`;
    if (typeof c.text !== "string" && typeof c.blob !== "string") return `contents[${i}] has neither text nor blob`;
  }
  return undefined;
}

/**
 * The SDK's SkillsClient works on a `Client`. This one is never connected: it answers what SkillsClient asks of it —
 * the server's capabilities, the negotiated version, and `request()` — from the connection Toolscope already holds,
 * and sends each request through Toolscope's own sender. So the verification rules stay the SDK's while the wire
 * record, the limits, the user's headers and the masking stay Toolscope's. The page walk and resources/read's cache
 * are the base class's own code; both call `request()`. Every exchange is kept, in order, failed ones included.
 */
export class SkillsWire extends Client {
  readonly exchanges: HttpExchange[] = [];
  readonly warnings: string[] = [];
  /** Pages read (skills/list, resources/directory/read). */
  pages = 0;
  /** The last resources/read result, for a refusal's message (the size and digest of what came). */
  lastRead: Record<string, unknown> | undefined;
  private sent = 0;
  private readonly opts: SkillsWireOptions;

  constructor(opts: SkillsWireOptions) {
    // No page cap of the SDK's own (0): the walk is cut here, keeping the pages read, as Toolscope cuts tools/list.
    super({ name: "toolscope", version: "1.0.0" }, { listMaxPages: 0, enforceStrictCapabilities: true });
    this.opts = opts;
  }

  override getServerCapabilities(): ServerCapabilities | undefined {
    return this.opts.capabilities as ServerCapabilities;
  }

  override getNegotiatedProtocolVersion(): string | undefined {
    return this.opts.protocolVersion;
  }

  /** One request through the sender; the SDK's own options (timeouts, signals) give way to Toolscope's limits. */
  override async request(request: { method: string; params?: Record<string, unknown> }, schemaOrOptions?: unknown): Promise<never> {
    const { method } = request;
    const message = {
      jsonrpc: "2.0",
      id: `skills-${Date.now().toString(36)}-${++this.sent}`,
      method,
      ...(request.params !== undefined ? { params: request.params } : {}),
    };
    let answer;
    try {
      answer = await this.opts.send(message);
    } catch (err) {
      if (!(err instanceof ExchangeFailure)) throw err;
      this.exchanges.push(...err.exchanges);
      throw err.cause;
    }
    this.exchanges.push(...answer.exchanges);
    const response = answer.response;
    if (!response) throw new ProxyError("upstream-protocol", `${method}: the server sent no answer.`);
    if (isObject(response.error)) {
      const { code, message: text } = response.error;
      throw new SkillRpcError(method, typeof code === "number" ? code : undefined, typeof text === "string" ? text : "(no message)");
    }
    if (!isObject(response.result)) throw new ProxyError("upstream-protocol", `${method}: the answer has no result object.`);
    // No one is there to answer: a skills request is never streamed, and its operation has no input to give.
    if (response.result.resultType === "input_required")
      throw new ProxyError(
        "upstream-protocol",
        `${method}: the server asked for input (input_required), which a skills request cannot give.`,
      );
    let result: Record<string, unknown> = response.result;
    if (isStandardSchema(schemaOrOptions)) {
      const checked = await schemaOrOptions["~standard"].validate(result);
      if (checked.issues)
        throw new ProxyError(
          "upstream-protocol",
          `${method} returned a result the skills extension does not allow: ${issueText(checked.issues)}.`,
        );
    } else if (method === "resources/read") {
      const problem = readResultProblem(result);
      if (problem) throw new ProxyError("upstream-protocol", `resources/read returned a result that is not a resource: ${problem}.`);
      this.lastRead = result;
    }
    if (method === "skills/list" || method === "resources/directory/read") result = this.boundedPage(method, result);
    return result as never;
  }

  /** A page at the page cap or past the deadline ends the walk: its cursor is dropped and the list says it is cut. */
  private boundedPage(method: string, page: Record<string, unknown>): Record<string, unknown> {
    this.pages++;
    if (typeof page.nextCursor !== "string") return page;
    const now = (this.opts.now ?? Date.now)();
    let cut: string | undefined;
    if (this.pages >= this.opts.maxPages)
      cut = `Stopped after ${this.opts.maxPages} pages of ${method} (TOOLSCOPE_MAX_TOOL_PAGES); the server has more.`;
    else if (now >= this.opts.deadline)
      cut = `Stopped after ${this.pages} pages of ${method}: the walk took longer than ${this.opts.deadlineMs} ms in all (TOOLSCOPE_LIST_DEADLINE_MS); the list is cut there.`;
    if (!cut) return page;
    this.warnings.push(cut);
    const { nextCursor: _dropped, ...rest } = page;
    return rest;
  }
}
