import { buildParamTree } from "@/lib/docs/param-rows";
import { ParamTree } from "./ParamTree";
import { CodeBlock } from "./CodeBlock";

/** Props for {@link SchemaView}. */
export interface SchemaViewProps {
  /** An inputSchema or outputSchema (untrusted). */
  schema: unknown;
  /** Which schema this is; changes the wording. Default "input". */
  kind?: "input" | "output";
  /** Show the raw JSON behind a <details> toggle. Default true. */
  showRaw?: boolean;
  /** Accessible name for the row list. */
  label?: string;
  testId?: string;
}

function prettyJson(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}

/** A schema as a parameter tree, plus its raw JSON. Works for input and output schemas (including non-object roots). */
export function SchemaView({ schema, kind = "input", showRaw = true, label, testId = `schema-view-${kind}` }: SchemaViewProps) {
  const tree = buildParamTree(schema);
  return (
    <div data-testid={testId} className="min-w-0">
      <ParamTree
        tree={tree}
        label={label ?? (kind === "input" ? "Parameters" : "Output fields")}
        emptyText={kind === "input" ? "This tool takes no parameters." : "The output schema declares no fields."}
        closedText={kind === "input" ? "No other arguments are accepted." : "No other fields are returned."}
        showRootDescription={kind === "output"}
        testId={`param-tree-${kind}`}
      />
      {showRaw && (
        <details className="mt-2" data-testid={`${testId}-raw`}>
          <summary className="cursor-pointer select-none text-xs font-medium text-zinc-600 hover:text-zinc-900 dark:text-zinc-400 dark:hover:text-zinc-100">
            Raw JSON schema
          </summary>
          <CodeBlock code={prettyJson(schema)} language="json" />
        </details>
      )}
    </div>
  );
}
