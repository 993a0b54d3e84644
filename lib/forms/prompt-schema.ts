/**
 * A prompt's arguments as a JSON Schema, so the form that fills a tool's `arguments` also fills `prompts/get`. MCP's
 * `prompts/list` describes each argument as `{ name, title?, description?, required? }`, and every value is a string.
 */
import { isObject } from "../json/guards.ts";

/**
 * The object schema of a prompt's `arguments`: the ones it lists and no others (issue 26: a prompt without arguments
 * offered "Add property"; the JSON editor still sends anything). Unknown to the list (null): any string arguments.
 */
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
  const known = isObject(prompt) && typeof prompt.name === "string";
  return {
    type: "object",
    properties,
    ...(required.length > 0 ? { required } : {}),
    additionalProperties: known ? false : { type: "string" },
  };
}
