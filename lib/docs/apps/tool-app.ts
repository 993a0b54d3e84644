/**
 * What a tool definition says about its MCP App (ext-apps specification 2026-01-26, "Resource Discovery"): the `ui://`
 * resource that renders its results, and who may call it. Read from `_meta.ui`, and from the deprecated flat
 * `_meta["ui/resourceUri"]` the specification still names (servers built on ext-apps send both).
 */
import type { Tool } from "../../mcp/contract.ts";
import { isObject } from "../../json/guards.ts";

/** The scheme an app's resource URI must use. */
export const APP_RESOURCE_SCHEME = "ui://";
/** The deprecated flat key for the resource URI. */
export const DEPRECATED_RESOURCE_KEY = "ui/resourceUri";

export type AppAudience = "model" | "app";
/** `visibility` when the tool gives none: the agent and the app both see it. */
export const DEFAULT_VISIBILITY: readonly AppAudience[] = ["model", "app"];

export interface ToolApp {
  /** The resource URI, from `_meta.ui.resourceUri` or else the deprecated key; absent for an app-less tool that only sets visibility. */
  resourceUri?: string;
  /** The URI came from the deprecated `_meta["ui/resourceUri"]` only. */
  fromDeprecatedKey: boolean;
  /** Both keys are given and name different resources (`_meta.ui.resourceUri` wins). */
  conflictingKeys: boolean;
  /** Who can call the tool, with the specification's default applied when the tool gives no `visibility`. */
  visibility: AppAudience[];
  /** The tool gave `visibility` itself. */
  visibilityDeclared: boolean;
  /** `visibility` entries other than "model" and "app", or the whole value when it is not a list. */
  unknownVisibility: unknown[];
}

/** The tool's app, or undefined when its `_meta` says nothing of MCP Apps. */
export function toolApp(tool: Pick<Tool, "_meta">): ToolApp | undefined {
  const meta = isObject(tool._meta) ? tool._meta : undefined;
  if (!meta) return undefined;
  const ui = isObject(meta.ui) ? meta.ui : undefined;
  const flat = meta[DEPRECATED_RESOURCE_KEY];
  if (!ui && flat === undefined) return undefined;
  const nested = typeof ui?.resourceUri === "string" ? ui.resourceUri : undefined;
  const deprecated = typeof flat === "string" ? flat : undefined;
  const raw = ui?.visibility;
  const declared = raw !== undefined;
  const list = Array.isArray(raw) ? raw : [];
  const known = list.filter((v): v is AppAudience => v === "model" || v === "app");
  return {
    ...((nested ?? deprecated) !== undefined ? { resourceUri: nested ?? deprecated } : {}),
    fromDeprecatedKey: nested === undefined && deprecated !== undefined,
    conflictingKeys: nested !== undefined && deprecated !== undefined && nested !== deprecated,
    visibility: declared ? [...new Set(known)] : [...DEFAULT_VISIBILITY],
    visibilityDeclared: declared,
    unknownVisibility: Array.isArray(raw) ? list.filter((v) => v !== "model" && v !== "app") : declared ? [raw] : [],
  };
}
