import type { Tool } from "../mcp/contract.ts";

/** The four behavioural hints of `ToolAnnotations`. */
export type HintKey = "readOnlyHint" | "destructiveHint" | "idempotentHint" | "openWorldHint";

export type HintLabel =
  "read-only" | "may modify" | "destructive" | "non-destructive" | "idempotent" | "not idempotent" | "open world" | "closed world";

/** One hint with its effective value and where that value came from. */
export interface EffectiveHint {
  key: HintKey;
  value: boolean;
  /** "set" when the server sent a boolean; "default" when the spec default applies (absent or not a boolean). */
  source: "set" | "default";
  /** False for destructive/idempotent hints on a read-only tool: the spec says they are then meaningless. */
  meaningful: boolean;
  label: HintLabel;
  explanation: string;
}

/** Spec defaults (schema.json, ToolAnnotations). */
export const HINT_DEFAULTS: Readonly<Record<HintKey, boolean>> = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: true,
};

export const HINT_ORDER: readonly HintKey[] = ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"];

const LABELS: Record<HintKey, [whenTrue: HintLabel, whenFalse: HintLabel]> = {
  readOnlyHint: ["read-only", "may modify"],
  destructiveHint: ["destructive", "non-destructive"],
  idempotentHint: ["idempotent", "not idempotent"],
  openWorldHint: ["open world", "closed world"],
};

const EXPLANATIONS: Record<HintKey, [whenTrue: string, whenFalse: string]> = {
  readOnlyHint: ["The tool does not modify its environment.", "The tool may modify its environment."],
  destructiveHint: ["The tool may perform destructive updates (delete or overwrite).", "The tool performs only additive updates."],
  idempotentHint: [
    "Calling it again with the same arguments has no additional effect.",
    "Calling it again with the same arguments may have additional effects.",
  ],
  openWorldHint: [
    "The tool may interact with an open world of external entities (e.g. the web).",
    "The tool's domain of interaction is closed (e.g. a local memory store).",
  ],
};

/**
 * Every behavioural hint with its effective value (spec defaults filled in) and provenance.
 * Always returns the four hints in {@link HINT_ORDER}. Hints are claims by the server, not facts.
 */
export function effectiveHints(tool: Pick<Tool, "annotations">): EffectiveHint[] {
  const ann = tool.annotations && typeof tool.annotations === "object" ? tool.annotations : {};
  const read = (key: HintKey): { value: boolean; source: "set" | "default" } => {
    const raw = (ann as Record<string, unknown>)[key];
    return typeof raw === "boolean" ? { value: raw, source: "set" } : { value: HINT_DEFAULTS[key], source: "default" };
  };
  const readOnly = read("readOnlyHint").value;
  return HINT_ORDER.map((key) => {
    const { value, source } = read(key);
    const meaningful = key === "destructiveHint" || key === "idempotentHint" ? !readOnly : true;
    let explanation = EXPLANATIONS[key][value ? 0 : 1];
    if (!meaningful) explanation += " (Not meaningful: the tool claims to be read-only.)";
    if (source === "default") explanation += ` Not set by the server; the spec default is ${HINT_DEFAULTS[key]}.`;
    return { key, value, source, meaningful, label: LABELS[key][value ? 0 : 1], explanation };
  });
}

/** The effective hint for one key. */
export function effectiveHint(tool: Pick<Tool, "annotations">, key: HintKey): EffectiveHint {
  return effectiveHints(tool).find((h) => h.key === key)!;
}

/** True when the tool, by its (untrusted) hints and the defaults, may perform destructive updates. */
export function isEffectivelyDestructive(tool: Pick<Tool, "annotations">): boolean {
  const hints = effectiveHints(tool);
  return !hints[0].value && hints[1].value;
}

/**
 * A one-line summary of the meaningful hints, e.g. "may modify, may be destructive, not idempotent, open world"
 * for a tool with no annotations, or "read-only, open world".
 */
export function hintSummary(tool: Pick<Tool, "annotations">): string {
  return effectiveHints(tool)
    .filter((h) => h.meaningful)
    .map((h) => (h.key === "destructiveHint" && h.value ? "may be destructive" : h.label))
    .join(", ");
}
