/**
 * A prompt's arguments as a JSON Schema, so the form that fills a tool's `arguments` also fills `prompts/get`. MCP's
 * `prompts/list` describes each argument as `{ name, title?, description?, required? }`, and every value is a string.
 */
import { isObject } from "../json/guards.ts";

/** The object schema of a prompt's `arguments` (an empty object schema when it declares none). */
export function promptArgumentsSchema(prompt: unknown): Record<string, unknown> {
  const list = isObject(prompt) && Array.isArray(prompt.arguments) ? prompt.arguments : [];
  const properties: Record<string, Record<string, unknown>> = {};
  const required: string[] = [];
  for (const arg of list) {
    if (!isObject(arg) || typeof arg.name !== "string" || arg.name === "" || arg.name in properties) continue;
    properties[arg.name] = {
      type: "string",
      ...(typeof arg.title === "string" ? { title: arg.title } : {}),
      ...(typeof arg.description === "string" ? { description: arg.description } : {}),
    };
    if (arg.required === true) required.push(arg.name);
  }
  return { type: "object", properties, ...(required.length > 0 ? { required } : {}), additionalProperties: { type: "string" } };
}
