import type { Tool } from "@/lib/mcp/contract";
import { DEPRECATED_RESOURCE_KEY, toolApp, type AppAudience } from "@/lib/docs/apps/tool-app";
import { Badge } from "@/components/ui/Badge";
import { Card } from "@/components/ui/Card";

const AUDIENCE: Record<AppAudience, { label: string; title: string }> = {
  model: { label: "agent", title: '"model": the agent sees the tool and may call it.' },
  app: { label: "its app", title: '"app": the app of this server connection may call it (never another server\'s).' },
};

/** Where this page can run the app: its own Try it (live docs), the playground (a snapshot), or nowhere (a static site). */
export type AppRunner = "try-it" | "playground" | null;

const HOW_TO_RUN: Record<"try-it" | "playground", string> = {
  "try-it": "Send in Try it calls the tool, then runs its app with the call's input and result.",
  playground: "Open in playground calls the tool on the live server, then runs its app with the call's input and result.",
};

/**
 * A tool's MCP App (ext-apps `_meta.ui`): the `ui://` resource its results render in and who may call it, with the
 * specification's default shown as a default. Nothing of the app is fetched or run here.
 */
export function AppCard({ tool, runner }: { tool: Pick<Tool, "_meta">; runner: AppRunner }) {
  const app = toolApp(tool);
  if (!app) return null;
  return (
    <Card title="MCP App" level={2} testId="tool-app">
      {app.resourceUri !== undefined ? (
        <p className="text-sm">
          Results render in the interactive view at{" "}
          <code className="break-all" data-testid="tool-app-resource">
            {app.resourceUri}
          </code>
          {app.fromDeprecatedKey && (
            <span className="text-zinc-600 dark:text-zinc-400">
              {" "}
              (given under the deprecated _meta[&quot;{DEPRECATED_RESOURCE_KEY}&quot;])
            </span>
          )}
          . A host without MCP Apps shows the text result instead.
        </p>
      ) : (
        <p className="text-sm">No view of its own: the tool only says who may call it.</p>
      )}
      <div className="mt-2 flex flex-wrap items-center gap-2 text-sm" data-testid="tool-app-visibility">
        <span className="text-zinc-600 dark:text-zinc-400">Who may call it:</span>
        {app.visibility.length === 0 ? (
          <Badge tone="danger" variant="solid">
            nobody
          </Badge>
        ) : (
          app.visibility.map((a) => (
            <Badge
              key={a}
              tone={a === "app" ? "accent" : "info"}
              variant={app.visibilityDeclared ? "solid" : "dashed"}
              title={`${AUDIENCE[a].title}${app.visibilityDeclared ? "" : ' The specification\'s default (["model", "app"]): the tool gives no visibility.'}`}
            >
              {AUDIENCE[a].label}
              {app.visibilityDeclared ? "" : " (default)"}
            </Badge>
          ))
        )}
      </div>
      <p className="mt-2 text-xs text-zinc-600 dark:text-zinc-400">
        {app.resourceUri !== undefined
          ? runner === null
            ? "The view's allowed domains and permissions are declared on the resource itself. This static copy fetches and runs nothing: open the server in Toolscope to run its app."
            : `The view's allowed domains and permissions are declared on the resource itself, which this page fetches only when you ask: ${HOW_TO_RUN[runner]}`
          : "A view's allowed domains and permissions are declared on its resource."}
      </p>
    </Card>
  );
}
