/**
 * Lints of a tool's MCP App declaration, from the definition alone (ext-apps specification 2026-01-26). What needs
 * the resource itself (missing, unreadable, wrong MIME type, undeclared domains) is checked where it is read.
 */
import type { Tool } from "../../mcp/contract.ts";
import { APP_RESOURCE_SCHEME, DEPRECATED_RESOURCE_KEY, toolApp } from "./tool-app.ts";

export type AppLintId =
  | "app-resource-not-ui"
  | "app-resource-deprecated-key"
  | "app-resource-conflict"
  | "app-visibility-none"
  | "app-visibility-unknown"
  | "app-only-tool";

export interface AppFinding {
  id: AppLintId;
  severity: "error" | "warning" | "info";
  message: string;
  why: string;
  fix: string;
}

/** The findings for one tool's app declaration (none for a tool without one). */
export function lintToolApp(tool: Pick<Tool, "_meta">): AppFinding[] {
  const app = toolApp(tool);
  if (!app) return [];
  const out: AppFinding[] = [];
  if (app.resourceUri !== undefined && !app.resourceUri.startsWith(APP_RESOURCE_SCHEME))
    out.push({
      id: "app-resource-not-ui",
      severity: "error",
      message: `The app resource "${app.resourceUri.slice(0, 200)}" does not use the ${APP_RESOURCE_SCHEME} scheme.`,
      why: "MCP Apps resources MUST use ui:// URIs; a host renders no app for any other, and shows the text result only.",
      fix: `Serve the HTML as a resource under ${APP_RESOURCE_SCHEME}… (e.g. ui://my-server/view.html) and point _meta.ui.resourceUri at it.`,
    });
  if (app.fromDeprecatedKey)
    out.push({
      id: "app-resource-deprecated-key",
      severity: "warning",
      message: `The app resource is given only under the deprecated _meta["${DEPRECATED_RESOURCE_KEY}"].`,
      why: "The flat key is deprecated and will be removed before the extension's GA; hosts that follow the specification read _meta.ui.resourceUri.",
      fix: `Send _meta.ui.resourceUri (keeping _meta["${DEPRECATED_RESOURCE_KEY}"] beside it for older hosts is fine).`,
    });
  if (app.conflictingKeys)
    out.push({
      id: "app-resource-conflict",
      severity: "warning",
      message: `_meta.ui.resourceUri and the deprecated _meta["${DEPRECATED_RESOURCE_KEY}"] name different resources.`,
      why: "Hosts that read the new key and hosts that read the old one would show different apps for the same tool.",
      fix: "Give both keys the same URI, or drop the deprecated one.",
    });
  if (app.visibilityDeclared && app.visibility.length === 0)
    out.push({
      id: "app-visibility-none",
      severity: "error",
      message: 'visibility names neither "model" nor "app": nobody may call this tool.',
      why: 'Hosts hide a tool from the agent without "model" and refuse app calls without "app", so with neither it is unreachable.',
      fix: 'Leave visibility out (the default is ["model", "app"]), or list who should call it.',
    });
  if (app.unknownVisibility.length > 0)
    out.push({
      id: "app-visibility-unknown",
      severity: "warning",
      message: `visibility holds ${app.unknownVisibility.map((v) => JSON.stringify(v)?.slice(0, 40)).join(", ")}, which the specification does not define.`,
      why: 'visibility is a list of "model" and "app"; hosts ignore anything else, so the tool may be less visible than meant.',
      fix: 'Use a list of "model" and/or "app".',
    });
  if (app.visibility.length === 1 && app.visibility[0] === "app")
    out.push({
      id: "app-only-tool",
      severity: "info",
      message: "An app-only tool: hidden from the agent, callable by its app on the same server connection.",
      why: "Hosts MUST leave it out of the agent's tool list and refuse calls to it from other servers' apps.",
      fix: "Nothing to fix if that is the intent. It still needs a clear description: people read it here.",
    });
  return out;
}
