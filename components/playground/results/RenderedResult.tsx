import type { OutputValidation, Tool } from "@/lib/mcp/contract";
import { classifyResponse } from "@/lib/mcp/response-kind";
import { visibleText } from "@/lib/mcp/visible-text";
import { isPagedMethod, nextPageRequest } from "@/lib/editor/next-page";
import { validateAgainst } from "@/lib/schema/validate";
import { ContentBlockView } from "./ContentBlockView";
import { JsonTree } from "./JsonTree";
import { PromptMessages } from "./PromptMessagesView";
import { ResourceContents } from "./ResourceContentsView";

interface Props {
  /** The JSON-RPC response. */
  response: Record<string, unknown>;
  /** The method that was sent (to tell an unknown tool from invalid params). */
  method?: string;
  /** The called tool, when known: its outputSchema checks structuredContent. */
  tool?: Tool;
  /** The proxy's verdict on structuredContent; shown when it did not check (an outputSchema over the schema limits). */
  outputValidation?: OutputValidation;
  /** Put a request in the editor (and send it): offered for the next page of a paginated list. */
  onNextPage?: (text: string, send: boolean) => void;
}

const pageButton = "rounded-md border border-zinc-300 px-2.5 py-1 text-sm hover:bg-zinc-50 dark:border-zinc-700 dark:hover:bg-zinc-900";

/** Where a paginated list stands: "Next page" / "Send next page" while the server has more, "Last page" after. */
function PageBar({
  method,
  response,
  onNextPage,
}: {
  method: string;
  response: Record<string, unknown>;
  onNextPage: NonNullable<Props["onNextPage"]>;
}) {
  const next = nextPageRequest(method, response);
  const items = Object.values(response.result as Record<string, unknown>).find(Array.isArray);
  const count = items ? `${items.length} item${items.length === 1 ? "" : "s"} on this page` : "This page";
  if (!next) {
    return (
      <p data-testid="last-page" className="text-xs text-zinc-500">
        {count} · last page (no <code>nextCursor</code>)
      </p>
    );
  }
  return (
    <div
      data-testid="next-page-bar"
      className="flex flex-wrap items-center gap-2 rounded-md border border-zinc-200 px-3 py-2 text-sm dark:border-zinc-800"
    >
      <span className="min-w-0 grow text-zinc-600 dark:text-zinc-400">
        {count}; the server has more (<code>nextCursor</code>).
      </span>
      {/* The two actions wrap together, never one per line. */}
      <span className="flex shrink-0 gap-2">
        <button
          type="button"
          className={pageButton}
          onClick={() => onNextPage(next.text, false)}
          data-testid="next-page"
          title={`Put ${next.method} with this cursor in the editor`}
        >
          Next page
        </button>
        <button
          type="button"
          className={pageButton}
          onClick={() => onNextPage(next.text, true)}
          data-testid="send-next-page"
          title={`Put ${next.method} with this cursor in the editor and send it`}
        >
          Send next page
        </button>
      </span>
    </div>
  );
}

function StructuredContent({ value, tool, skipped }: { value: unknown; tool?: Tool; skipped?: string }) {
  const verdict = tool?.outputSchema && !skipped ? validateAgainst(tool.outputSchema, value) : undefined;
  return (
    <section className="rounded-md border border-zinc-200 p-3 dark:border-zinc-800" data-testid="structured-content">
      <div className="mb-2 flex flex-wrap items-center gap-2">
        <h3 className="text-sm font-medium">structuredContent</h3>
        {skipped ? (
          <span
            data-testid="output-verdict"
            className="rounded-full bg-amber-100 px-2 py-0.5 text-xs font-medium text-amber-900 dark:bg-amber-950 dark:text-amber-300"
            title={skipped}
          >
            outputSchema not checked
          </span>
        ) : verdict === undefined ? (
          <span className="text-xs text-zinc-500">no outputSchema to check against</span>
        ) : verdict.ok ? (
          <span
            data-testid="output-verdict"
            className="rounded-full bg-emerald-100 px-2 py-0.5 text-xs font-medium text-emerald-800 dark:bg-emerald-950 dark:text-emerald-300"
          >
            matches outputSchema
          </span>
        ) : (
          <span
            data-testid="output-verdict"
            className="rounded-full bg-red-100 px-2 py-0.5 text-xs font-medium text-red-800 dark:bg-red-950 dark:text-red-300"
          >
            {verdict.schemaError
              ? "outputSchema cannot be compiled"
              : `${verdict.diagnostics.length} mismatch${verdict.diagnostics.length === 1 ? "" : "es"} with outputSchema`}
          </span>
        )}
      </div>
      {skipped && <p className="mb-2 text-sm text-amber-900 dark:text-amber-300">{skipped}</p>}
      {verdict && !verdict.ok && (
        <ul className="mb-2 list-disc pl-5 text-sm text-red-800 dark:text-red-300">
          {verdict.schemaError && <li>{verdict.schemaError}</li>}
          {verdict.diagnostics.map((d, i) => (
            <li key={i}>
              <code>{d.pointer || "/"}</code>: {d.message}
            </li>
          ))}
        </ul>
      )}
      <div className="-ml-4 font-mono text-xs">
        <JsonTree value={value} />
      </div>
    </section>
  );
}

/** A tasks/get answer's status and message, for a poll that did not end the task (no result inside). */
function polledStatus(response: Record<string, unknown>): { status: string; message?: string } | undefined {
  const r = response.result;
  if (typeof r !== "object" || r === null) return undefined;
  const o = r as Record<string, unknown>;
  const task = (typeof o.task === "object" && o.task !== null ? o.task : o) as Record<string, unknown>;
  if (typeof task.status !== "string") return undefined;
  return { status: task.status.replace("_", " "), ...(typeof task.statusMessage === "string" ? { message: task.statusMessage } : {}) };
}

/** The tool result inside a completed 2026-07-28 task's tasks/get answer. */
function completedTaskResult(response: Record<string, unknown>): Record<string, unknown> | undefined {
  const result = response.result;
  if (typeof result !== "object" || result === null) return undefined;
  const r = result as Record<string, unknown>;
  return r.status === "completed" && typeof r.result === "object" && r.result !== null ? (r.result as Record<string, unknown>) : undefined;
}

/** The server's answer, rendered: content blocks, structured content with its schema verdict, or the error by kind. */
export function RenderedResult({ response, method, tool, outputValidation, onNextPage }: Props) {
  // A task's end: 2026-07-28 hands the tool's result over inside tasks/get, 2025-11-25 as the answer to tasks/result.
  const taskResult = method === "tasks/get" ? completedTaskResult(response) : undefined;
  if (taskResult) return <RenderedResult response={{ ...response, result: taskResult }} method="tools/call" tool={tool} />;
  if (method === "tasks/result") return <RenderedResult response={response} method="tools/call" tool={tool} />;
  const polled = method === "tasks/get" ? polledStatus(response) : undefined;
  if (polled) {
    return (
      <section data-testid="task-poll" className="rounded-md border border-zinc-200 p-3 text-sm dark:border-zinc-800">
        <p>
          <span className="font-semibold">Task {polled.status}</span>
          {polled.message && <span className="text-zinc-600 dark:text-zinc-400"> · {visibleText(polled.message)}</span>}
        </p>
        <div className="-ml-4 mt-2 font-mono text-xs">
          <JsonTree value={response.result} label="result" />
        </div>
      </section>
    );
  }
  const kind = classifyResponse(response, method);
  if (kind.kind === "task") {
    return (
      <section
        data-testid="task-handle"
        className="rounded-md border border-sky-300 bg-sky-50 p-3 text-sm dark:border-sky-800 dark:bg-sky-950/40"
      >
        <p className="font-semibold">The server answered with a task handle (resultType &quot;task&quot;)</p>
        <p className="mt-1">The call runs on as a task: the playground polls it with tasks/get until it ends.</p>
      </section>
    );
  }
  if (kind.kind === "rpc-error") {
    const err = response.error as { message?: unknown; data?: unknown };
    return (
      <section
        data-testid="rpc-error"
        data-error-kind={kind.errorKind}
        className="rounded-md border border-amber-300 bg-amber-50 p-3 dark:border-amber-800 dark:bg-amber-950/40"
      >
        <p className="text-sm font-semibold">
          JSON-RPC error {Number.isNaN(kind.code) ? "" : kind.code} · {kind.title}
        </p>
        <p className="mt-1 text-sm">{String(err.message ?? "")}</p>
        <p className="mt-1 text-xs text-zinc-600 dark:text-zinc-400">{kind.explanation}</p>
        {kind.errorKind === "unsupported-version" && Array.isArray((kind.data as { supported?: unknown })?.supported) && (
          <p className="mt-1 text-sm">Server supports: {(kind.data as { supported: string[] }).supported.join(", ")}</p>
        )}
        {err.data !== undefined && (
          <div className="-ml-4 mt-2 font-mono text-xs">
            <JsonTree value={err.data} label="data" />
          </div>
        )}
      </section>
    );
  }
  if (kind.kind === "invalid") {
    return (
      <p role="alert" className="rounded-md border border-red-300 p-3 text-sm text-red-800 dark:border-red-900 dark:text-red-300">
        Invalid response: {kind.reason}
      </p>
    );
  }
  const result = response.result as Record<string, unknown>;
  if (kind.kind === "input-required") {
    return (
      <section
        data-testid="input-required"
        className="rounded-md border border-sky-300 bg-sky-50 p-3 text-sm dark:border-sky-800 dark:bg-sky-950/40"
      >
        <p className="font-semibold">The server needs input before it can finish (input_required)</p>
        <p className="mt-1">
          The playground asks you for each request below, then resends the call with <code>inputResponses</code> keyed like them and the{" "}
          <code>requestState</code> echoed exactly.
        </p>
        <div className="-ml-4 mt-2 font-mono text-xs">
          <JsonTree value={kind.inputRequests} label="inputRequests" />
        </div>
      </section>
    );
  }
  const content = Array.isArray(result.content) ? (result.content as Record<string, unknown>[]) : undefined;
  // A resources/read or prompts/get answer, read as a person would (the JSON tab keeps the raw answer). Told by its
  // shape, so a shared or saved answer renders the same without the method that was sent.
  const contents = !content && Array.isArray(result.contents) ? (result.contents as Record<string, unknown>[]) : undefined;
  const messages = !content && Array.isArray(result.messages) ? (result.messages as unknown[]) : undefined;
  return (
    <div className="space-y-3" data-testid="rendered-result">
      {onNextPage && isPagedMethod(method) && <PageBar method={method} response={response} onNextPage={onNextPage} />}
      {kind.kind === "tool-error" && (
        <p
          data-testid="tool-error"
          className="rounded-md bg-red-50 px-3 py-2 text-sm font-medium text-red-800 dark:bg-red-950/50 dark:text-red-300"
        >
          The tool reported an error (isError: true). This is the tool&apos;s own answer, meant for the model to read and correct.
        </p>
      )}
      {content?.map((block, i) => (
        <ContentBlockView key={i} block={block} />
      ))}
      {result.structuredContent !== undefined && (
        <StructuredContent value={result.structuredContent} tool={tool} skipped={outputValidation?.skipped} />
      )}
      {contents?.map((c, i) => (
        <ResourceContents key={i} contents={c} />
      ))}
      {messages && <PromptMessages description={result.description} messages={messages} />}
      {!content && !contents && !messages && result.structuredContent === undefined && (
        <div className="-ml-4 font-mono text-xs">
          <JsonTree value={result} label="result" />
        </div>
      )}
    </div>
  );
}
