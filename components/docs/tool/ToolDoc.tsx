import Link from "next/link";
import { TaskSupportNote } from "./TaskSupportNote";
import type { Era, Tool } from "@/lib/mcp/contract";
import { curlCommand } from "@/lib/codegen/copy-as-code";
import { CopyButton } from "@/components/ui/CopyButton";
import type { DocsLinks } from "@/lib/docs/links";
import { displayName } from "@/lib/docs/display-name";
import { hintSummary, isEffectivelyDestructive } from "@/lib/docs/annotations";
import { exampleArgs } from "@/lib/docs/example-args";
import { lintTool } from "@/lib/docs/lints";
import { scanHeaderDeclarations } from "@/lib/mcp/x-mcp-header";
import { validateAgainst } from "@/lib/schema/validate";
import { Card } from "@/components/ui/Card";
import { AnnotationBadges } from "./AnnotationBadges";
import { AppCard } from "./AppCard";
import { CodeBlock } from "./CodeBlock";
import { LintList } from "../LintList";
import { Markdown } from "@/components/ui/Markdown";
import { ModelView } from "./ModelView";
import { SchemaView } from "./SchemaView";
import { ToolIcon } from "./ToolIcon";
import { TryIt } from "./TryIt";

interface Props {
  tool: Tool;
  /** Where the page links: back to the server page and to the playground. */
  links: DocsLinks;
  serverName: string;
  /** The server is on the trusted list: its annotations are shown as facts rather than claims. */
  trusted?: boolean;
  /** Where and how the tool is called, for "Copy as curl" (absent for servers without an HTTP endpoint). */
  endpoint?: { url: string; era: Era; protocolVersion: string; transport?: "sse" };
  /** Why the tool cannot be called through Toolscope, when it is excluded (Try it is then not offered). */
  excludedReason?: string;
}

const SECRETISH = /(pass(word)?|token|secret|key|email|credential|auth)/i;

/** Everything a client developer needs about one tool, from its definition alone. */
export function ToolDoc({ tool, links, serverName, trusted = false, endpoint, excludedReason }: Props) {
  const name = displayName(tool);
  const headers = scanHeaderDeclarations(tool.inputSchema);
  const example = exampleArgs(tool.inputSchema);
  const exampleOk = validateAgainst(tool.inputSchema, example);
  const call = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: tool.name, arguments: example } };
  const findings = lintTool(tool);
  return (
    <article className="space-y-6">
      <nav className="text-sm text-zinc-500" aria-label="Breadcrumb">
        <Link href={links.serverPage} className="hover:underline">
          {serverName}
        </Link>{" "}
        / <span>{tool.name}</span>
      </nav>
      {/* Wraps: on a narrow screen the buttons go below the name instead of squeezing it. */}
      <header className="flex flex-wrap items-start gap-3">
        <ToolIcon icons={tool.icons} name={name} size={40} />
        <div className="min-w-[min(14rem,calc(100%-3.25rem))] flex-1">
          <h1 className="break-words text-2xl font-semibold tracking-tight">{name}</h1>
          {name !== tool.name && <code className="text-sm text-zinc-500">{tool.name}</code>}
        </div>
        <div className="flex shrink-0 flex-wrap gap-2 max-sm:ml-auto">
          {links.data.live && !excludedReason && (
            <a
              href="#try-it"
              className="rounded-md border border-accent-600 px-3 py-1.5 text-sm font-medium text-accent-700 hover:bg-accent-50 dark:border-accent-500 dark:text-accent-100 dark:hover:bg-accent-700/30"
            >
              Try it
            </a>
          )}
          {links.playground && (
            <Link
              href={links.playground(tool.name)}
              data-testid="open-in-playground"
              className="rounded-md bg-accent-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-accent-700"
            >
              Open in playground
            </Link>
          )}
        </div>
      </header>
      <AnnotationBadges
        tool={tool}
        untrustedNote={
          trusted ? "This server is on the trusted list (TOOLSCOPE_TRUSTED_SERVERS): its hints are taken at their word." : true
        }
      />
      <TaskSupportNote tool={tool} />
      {tool.description ? (
        <Markdown source={tool.description} testId="tool-description" />
      ) : (
        <p className="text-sm italic text-zinc-500">The server gives no description for this tool.</p>
      )}
      <AppCard tool={tool} runner={links.data.live ? "try-it" : links.playground ? "playground" : null} />

      <Card title="Parameters" level={2} testId="input-schema">
        <SchemaView schema={tool.inputSchema} kind="input" />
      </Card>

      {headers.declarations.length > 0 && (
        <Card title="Mirrored into HTTP headers (x-mcp-header)" level={2} testId="x-mcp-headers">
          <p className="mb-2 text-sm text-zinc-600 dark:text-zinc-400">
            On Streamable HTTP, clients copy these argument values into headers so gateways and load balancers can route without reading the
            body.
          </p>
          <ul className="space-y-1 text-sm">
            {headers.declarations.map((d) => (
              <li key={d.header}>
                <code>{d.path.join(".")}</code> → <code className="font-semibold">{d.header}</code>
                {SECRETISH.test(d.path.at(-1) ?? "") && (
                  <span className="ml-2 text-amber-700 dark:text-amber-400">
                    Looks secret: header values show up in proxy and gateway logs.
                  </span>
                )}
              </li>
            ))}
          </ul>
        </Card>
      )}

      <Card title="Output" level={2} testId="output-schema">
        {tool.outputSchema ? (
          <>
            <p className="mb-2 text-sm text-zinc-600 dark:text-zinc-400">
              The tool declares an output schema: a successful result must carry <code>structuredContent</code> matching it (clients
              validate it).
            </p>
            <SchemaView schema={tool.outputSchema} kind="output" />
          </>
        ) : (
          <p className="text-sm text-zinc-600 dark:text-zinc-400">
            No output schema: results are unstructured content blocks (text, images, resources).
          </p>
        )}
      </Card>

      <Card title="Example call" level={2} testId="example-call">
        <CodeBlock code={JSON.stringify(call, null, 2)} language="json" />
        {endpoint && (
          <div className="mt-2 flex flex-wrap items-center gap-2">
            <CopyButton
              text={curlCommand({
                endpoint: endpoint.url,
                era: endpoint.era,
                protocolVersion: endpoint.protocolVersion,
                message: call,
                tool,
                ...(endpoint.transport ? { transport: endpoint.transport } : {}),
              })}
              label="Copy as curl"
              testId="copy-curl"
            />
            <span className="text-xs text-zinc-500">
              {endpoint.era === "modern"
                ? "With the _meta envelope and the MCP-Protocol-Version, Mcp-Method, Mcp-Name and Mcp-Param-* headers."
                : endpoint.transport === "sse"
                  ? "A shell script: this server speaks the deprecated HTTP+SSE transport, so it opens the event stream, initializes, posts the call to the endpoint the stream names and prints the answer."
                  : "A legacy server also needs an initialize handshake first and the Mcp-Session-Id it returns."}
            </span>
          </div>
        )}
        <p className="mt-1 text-xs text-zinc-500">
          {exampleOk.ok
            ? "Generated from the input schema and checked against it."
            : "Generated from the input schema, but it does not validate: the schema may be unsatisfiable or use features the generator skips."}
        </p>
      </Card>

      <div id="try-it" className="scroll-mt-4">
        <Card title="Try it" level={2} testId="try-it-card">
          {excludedReason ? (
            <p className="text-sm text-zinc-600 dark:text-zinc-400">
              This tool is excluded from calling through Toolscope: {excludedReason}
            </p>
          ) : links.data.live && links.playground ? (
            <TryIt
              server={links.data.server}
              tool={tool}
              example={example}
              destructive={isEffectivelyDestructive(tool)}
              hintSummary={hintSummary(tool)}
              playgroundHref={links.playground(tool.name)}
            />
          ) : !links.playground ? (
            <p className="text-sm" data-testid="try-it-static">
              A static copy of the definitions: open the server in Toolscope&apos;s playground to call {tool.name}.
            </p>
          ) : (
            <p className="text-sm" data-testid="try-it-snapshot">
              A snapshot is not live: it shows the definitions as they were recorded.{" "}
              <Link href={links.playground(tool.name)} className="font-medium text-accent-700 underline dark:text-accent-100">
                Try {tool.name} in the playground
              </Link>{" "}
              against the live server.
            </p>
          )}
        </Card>
      </div>

      <Card title="Checks" level={2} testId="tool-lints">
        <LintList findings={findings} />
      </Card>

      <Card title="What the model sees" level={2}>
        <ModelView tool={tool} />
      </Card>

      <details className="rounded-md border border-zinc-200 p-3 dark:border-zinc-800">
        <summary className="cursor-pointer text-sm font-medium">Raw definition</summary>
        <div className="mt-2">
          <CopyButton text={JSON.stringify(tool, null, 2)} label="Copy JSON" testId="copy-definition" />
        </div>
        <CodeBlock code={JSON.stringify(tool, null, 2)} language="json" />
      </details>
    </article>
  );
}
