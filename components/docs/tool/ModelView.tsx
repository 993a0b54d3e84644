import type { Tool } from "@/lib/mcp/contract";
import { claudeToolDefinition, openAiFunctionDefinition } from "@/lib/docs/model-view";
import { CodeBlock } from "./CodeBlock";

/** Props for {@link ModelView}. */
export interface ModelViewProps {
  tool: Tool;
  /** A list-wide unique mapped name (from `claudeNameMap`), when the page has one. */
  mappedName?: string;
  testId?: string;
}

/** What a model is sent for this tool: the Claude API and OpenAI definitions, with a rough token count. */
export function ModelView({ tool, mappedName, testId = "model-view" }: ModelViewProps) {
  const claude = claudeToolDefinition(tool, mappedName);
  const openai = openAiFunctionDefinition(tool, mappedName?.slice(0, 64));
  return (
    <div data-testid={testId} className="grid min-w-0 gap-3 lg:grid-cols-2">
      <div className="min-w-0" data-testid="model-view-claude">
        <p className="text-xs text-zinc-600 dark:text-zinc-400">
          Claude API · about <span data-testid="model-view-claude-tokens">{claude.tokens}</span> tokens
        </p>
        {!claude.nameValid && (
          <p className="mt-0.5 text-xs text-amber-800 dark:text-amber-300" data-testid="model-view-claude-mapped">
            The name is not accepted by the Claude API; clients send it as <code className="font-mono">{claude.mappedName}</code>.
          </p>
        )}
        <CodeBlock code={claude.json} language="json" label="tools[] entry" />
      </div>
      <div className="min-w-0" data-testid="model-view-openai">
        <p className="text-xs text-zinc-600 dark:text-zinc-400">
          OpenAI function · about <span data-testid="model-view-openai-tokens">{openai.tokens}</span> tokens
        </p>
        {!openai.nameValid && (
          <p className="mt-0.5 text-xs text-amber-800 dark:text-amber-300">
            The name is not accepted as a function name; clients send it as <code className="font-mono">{openai.mappedName}</code>.
          </p>
        )}
        <CodeBlock code={openai.json} language="json" label="tools[] entry" />
      </div>
      <p className="text-xs text-zinc-500 lg:col-span-2 dark:text-zinc-500">
        Token counts are estimates (about four characters per token).
      </p>
    </div>
  );
}
