/** A tool as model APIs see it: the Claude API tool definition and an OpenAI function definition. */
import type { Tool } from "../mcp/contract.ts";
import { isClaudeToolName, toClaudeToolName } from "./tool-names.ts";
import { isObject } from "../json/guards.ts";

/** OpenAI function names: ^[a-zA-Z0-9_-]{1,64}$. */
export const OPENAI_FUNCTION_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

export interface ClaudeToolDefinition {
  name: string;
  description?: string;
  input_schema: Record<string, unknown>;
}

export interface OpenAiFunctionDefinition {
  type: "function";
  function: { name: string; description?: string; parameters: Record<string, unknown> };
}

export interface ModelDefinitionView<T> {
  definition: T;
  /** Pretty-printed JSON of `definition`. */
  json: string;
  /** True when the tool's own name is accepted by this API. */
  nameValid: boolean;
  /** The name a client has to use instead, when `nameValid` is false. */
  mappedName?: string;
  /** Rough token estimate: characters / 4 of the compact JSON. */
  tokens: number;
}

/** A rough token estimate (≈ 4 characters per token for English and JSON). */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

function schemaOf(tool: Tool): Record<string, unknown> {
  const s = tool?.inputSchema;
  return isObject(s) ? s : { type: "object" };
}

function describe(tool: Tool): string | undefined {
  return typeof tool?.description === "string" && tool.description.trim() !== "" ? tool.description : undefined;
}

function view<T>(definition: T, nameValid: boolean, mappedName: string | undefined): ModelDefinitionView<T> {
  const compact = JSON.stringify(definition);
  return {
    definition,
    json: JSON.stringify(definition, null, 2),
    nameValid,
    ...(nameValid ? {} : { mappedName }),
    tokens: estimateTokens(compact),
  };
}

/** The tool as a Claude API `tools[]` entry. `mappedName` overrides the computed mapping (e.g. from {@link claudeNameMap}). */
export function claudeToolDefinition(tool: Tool, mappedName?: string): ModelDefinitionView<ClaudeToolDefinition> {
  const name = typeof tool?.name === "string" ? tool.name : "";
  const valid = isClaudeToolName(name);
  const useName = valid ? name : (mappedName ?? toClaudeToolName(name));
  const description = describe(tool);
  const definition: ClaudeToolDefinition = { name: useName, ...(description ? { description } : {}), input_schema: schemaOf(tool) };
  return view(definition, valid, useName);
}

/** The tool as an OpenAI `tools[]` function entry (names limited to 64 characters). */
export function openAiFunctionDefinition(tool: Tool, mappedName?: string): ModelDefinitionView<OpenAiFunctionDefinition> {
  const name = typeof tool?.name === "string" ? tool.name : "";
  const valid = OPENAI_FUNCTION_NAME.test(name);
  const useName = valid ? name : (mappedName ?? toClaudeToolName(name).slice(0, 64));
  const description = describe(tool);
  const definition: OpenAiFunctionDefinition = {
    type: "function",
    function: { name: useName, ...(description ? { description } : {}), parameters: schemaOf(tool) },
  };
  return view(definition, valid, useName);
}

/**
 * Claude-safe names for a whole tool list, unique across it: a mapped name that collides with another
 * tool's name (or another mapping) gets a numeric suffix ("_2", "_3"…). Valid names map to themselves.
 */
export function claudeNameMap(names: string[]): Map<string, string> {
  const out = new Map<string, string>();
  const taken = new Set(names.filter((n) => isClaudeToolName(n)));
  for (const name of names) {
    if (out.has(name)) continue;
    if (isClaudeToolName(name)) {
      out.set(name, name);
      continue;
    }
    const base = toClaudeToolName(name);
    let candidate = base;
    for (let i = 2; taken.has(candidate); i++) {
      const suffix = `_${i}`;
      candidate = base.slice(0, 128 - suffix.length) + suffix;
    }
    taken.add(candidate);
    out.set(name, candidate);
  }
  return out;
}
