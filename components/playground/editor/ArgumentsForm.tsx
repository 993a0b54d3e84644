"use client";

import { useId, useMemo, useState } from "react";
import type { Tool } from "@/lib/mcp/contract";
import { promptArgumentsSchema } from "@/lib/forms/prompt-schema";
import { readRequestArguments, writeRequestArguments } from "@/lib/playground/request-arguments";
import { SchemaForm } from "@/components/forms/SchemaForm";

interface Props {
  /** The editor text: the one source of truth, so the form and the JSON never disagree. */
  text: string;
  tools: Tool[];
  /** The server's prompts when the explorer has listed them (a prompts/get form needs their arguments). */
  prompts?: readonly unknown[];
  onText: (text: string) => void;
  open: boolean;
  onOpen: (open: boolean) => void;
}

type Target = { kind: "form"; label: string; schema: unknown; args: Record<string, unknown> | undefined } | { kind: "note"; text: string };

/** What the form above the editor can show for this text: a tool's or prompt's arguments, or why not. */
function formTarget(text: string, tools: Tool[], prompts: readonly unknown[] | undefined): Target | null {
  const read = readRequestArguments(text);
  if (!read.ok) return read.reason === "other-method" || read.reason === "not-an-object" ? null : { kind: "note", text: read.message };
  if (read.name === undefined)
    return { kind: "note", text: `Name the ${read.method === "tools/call" ? "tool" : "prompt"} in params.name to get its form.` };
  if (read.method === "tools/call") {
    const tool = tools.find((t) => t.name === read.name);
    if (!tool) return { kind: "note", text: `The server did not list a tool named “${read.name}”, so there is no schema for a form.` };
    return { kind: "form", label: `Arguments of ${read.name}`, schema: tool.inputSchema, args: read.arguments };
  }
  const prompt = prompts?.find((p) => (p as { name?: unknown }).name === read.name);
  if (!prompt)
    return {
      kind: "note",
      text: prompts
        ? `The server did not list a prompt named “${read.name}”.`
        : "The form shows once the explorer has listed the server's prompts.",
    };
  return { kind: "form", label: `Arguments of prompt ${read.name}`, schema: promptArgumentsSchema(prompt), args: read.arguments };
}

/**
 * The arguments of the editor's `tools/call` / `prompts/get` as a form, two-way with the JSON: the form reads
 * `params.arguments` from the text and each edit writes only that member back, so what the form cannot express (kept
 * by the form as JSON) and the rest of the message stay as typed.
 */
export function ArgumentsForm({ text, tools, prompts, onText, open, onOpen }: Props) {
  const target = useMemo(() => formTarget(text, tools, prompts), [text, tools, prompts]);
  const [writeError, setWriteError] = useState<string | null>(null);
  const bodyId = useId();
  if (!target) return null;

  const onChange = (args: Record<string, unknown>) => {
    const written = writeRequestArguments(text, args);
    if (written.ok) {
      setWriteError(null);
      onText(written.text);
    } else setWriteError(written.message);
  };

  return (
    <section
      aria-label="Arguments form"
      className="mb-2 rounded-md border border-zinc-200 dark:border-zinc-800"
      data-testid="arguments-form"
    >
      <button
        type="button"
        aria-expanded={open}
        aria-controls={bodyId}
        onClick={() => onOpen(!open)}
        className="flex w-full items-center gap-2 rounded-md px-2 py-1.5 text-left text-sm font-medium hover:bg-zinc-50 focus-visible:outline-2 focus-visible:outline-accent-600 dark:hover:bg-zinc-900"
        data-testid="arguments-form-toggle"
      >
        <span aria-hidden="true" className="text-xs text-zinc-500">
          {open ? "▾" : "▸"}
        </span>
        {target.kind === "form" ? target.label : "Arguments form"}
        <span className="ml-auto text-xs font-normal text-zinc-500">edits params.arguments in the JSON below</span>
      </button>
      {open && (
        <div id={bodyId} className="max-h-[45vh] overflow-auto border-t border-zinc-200 px-3 py-2 dark:border-zinc-800">
          {target.kind === "note" ? (
            <p className="text-xs text-zinc-600 dark:text-zinc-400" data-testid="arguments-form-note">
              {target.text}
            </p>
          ) : (
            <SchemaForm schema={target.schema} value={target.args} onChange={onChange} idPrefix="argsform" />
          )}
          {writeError && (
            <p role="alert" className="mt-2 text-xs text-red-700 dark:text-red-400">
              {writeError}
            </p>
          )}
        </div>
      )}
    </section>
  );
}
