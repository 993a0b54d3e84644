/**
 * Benchmark: how long diagnoseRequest takes per keystroke for a tools/call against a 500-property schema.
 *
 *   node --import tsx scripts/bench-diagnostics.ts
 *
 * Prints the cold time (first call: compiles the MCP CallToolRequest validator and the tool's schema) and the
 * median/p95 of warm calls after one-character edits. Target: < 50 ms per keystroke.
 */
import { diagnoseRequest } from "../lib/editor/request-diagnostics.ts";
import type { Tool } from "../lib/mcp/contract.ts";

const PROPS = 500;
const RUNS = 300;

function bigTool(): Tool {
  const properties: Record<string, unknown> = {};
  for (let i = 0; i < PROPS; i++) {
    properties[`field_${i}`] =
      i % 4 === 0
        ? { type: "string", enum: ["open", "in_progress", "closed"], description: `Status ${i}` }
        : i % 4 === 1
          ? { type: "integer", minimum: 0, maximum: 1000, description: `Count ${i}` }
          : i % 4 === 2
            ? { type: "string", minLength: 1, maxLength: 200, description: `Text ${i}` }
            : { type: "array", items: { type: "string" }, description: `Tags ${i}` };
  }
  return { name: "big_tool", inputSchema: { type: "object", properties, required: ["field_0", "field_1"], additionalProperties: false } };
}

function requestText(): string {
  const args: Record<string, unknown> = {};
  for (let i = 0; i < PROPS; i++) args[`field_${i}`] = i % 4 === 0 ? "open" : i % 4 === 1 ? i : i % 4 === 2 ? `text ${i}` : ["a", "b"];
  return JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "big_tool", arguments: args } }, null, 2);
}

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

const tool = bigTool();
const base = requestText();
const ctx = { tools: [tool], era: "modern" as const };

const t0 = performance.now();
const first = diagnoseRequest(base, ctx);
const cold = performance.now() - t0;
if (first.length !== 0) throw new Error(`expected a clean request, got ${first.length} diagnostics`);

// One-character edits at varying places: inside a string value (valid), a digit (valid), and an enum value (invalid).
const anchor = base.indexOf('"text 2"') + 2;
const times: number[] = [];
let lastCount = 0;
for (let i = 0; i < RUNS; i++) {
  const ch = String.fromCharCode(97 + (i % 26));
  const text = i % 3 === 2 ? base.replace('"open"', `"open${ch}"`) : base.slice(0, anchor) + ch + base.slice(anchor);
  const s = performance.now();
  lastCount = diagnoseRequest(text, ctx).length;
  times.push(performance.now() - s);
}
times.sort((a, b) => a - b);

// A freshly listed tool with a different 500-property schema: only the tool's validator compiles (MCP's is cached).
const other = bigTool();
(other.inputSchema.properties as Record<string, Record<string, unknown>>).field_3.description = "changed";
const t1 = performance.now();
diagnoseRequest(base, { tools: [other], era: "modern" });
const toolCompile = performance.now() - t1;

const fmt = (ms: number) => `${ms.toFixed(2)} ms`;
console.log(`diagnoseRequest, tools/call with a ${PROPS}-property inputSchema (${(base.length / 1024).toFixed(1)} KB of request text)`);
console.log(`  cold (first call, compiles MCP + tool validators): ${fmt(cold)}`);
console.log(`  cold tool schema only (MCP validator already cached): ${fmt(toolCompile)}`);
console.log(
  `  warm, after a one-character edit (${RUNS} runs): median ${fmt(quantile(times, 0.5))}, p95 ${fmt(quantile(times, 0.95))}, max ${fmt(times[times.length - 1])}`,
);
console.log(`  diagnostics on the last edited text: ${lastCount}`);
console.log(`  target < 50 ms per keystroke: ${quantile(times, 0.95) < 50 ? "met" : "NOT met"}`);
