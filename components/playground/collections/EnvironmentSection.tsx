"use client";

import { useId, useState } from "react";
import { missingHeaders, withHeaderNames, withVariables, type Collection, type EnvironmentEdit } from "@/lib/collections";
import { fieldClass } from "./ExpectationRow";

interface Props {
  collection: Collection;
  /** The names of the headers this tab sends (never their values). */
  headerNames: readonly string[];
  onChange: (c: Collection) => void;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** A text field whose text is kept while it does not read, with the message saying what to change. */
function EnvField({
  label,
  value,
  edit,
  onChange,
  rows,
  testId,
}: {
  label: string;
  value: string;
  edit: (text: string) => EnvironmentEdit;
  onChange: (c: Collection) => void;
  rows: number;
  testId: string;
}) {
  const [draft, setDraft] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const id = useId();
  const text = draft ?? value;
  return (
    <div className="space-y-0.5">
      <label htmlFor={id} className="block text-[11px] leading-snug text-zinc-500">
        {label}
      </label>
      <textarea
        id={id}
        rows={Math.min(6, Math.max(rows, text.split("\n").length))}
        className={`${fieldClass} w-full`}
        value={text}
        spellCheck={false}
        aria-invalid={error ? true : undefined}
        data-testid={testId}
        onChange={(e) => {
          const r = edit(e.target.value);
          setDraft(e.target.value);
          if (r.ok) {
            setError(null);
            onChange(r.collection);
          } else setError(r.error);
        }}
        onBlur={() => !error && setDraft(null)}
      />
      {error && (
        <p role="alert" className="text-[11px] text-red-700 dark:text-red-300">
          {error}
        </p>
      )}
    </div>
  );
}

/**
 * Where a collection runs: the server a file names, the names of the headers it needs (the tab's header values are
 * used here; `toolscope test` takes them from flags and the environment), and the variables set before the first call.
 */
export function EnvironmentSection({ collection, headerNames, onChange }: Props) {
  const env = collection.environment ?? {};
  const missing = missingHeaders(collection, headerNames);
  return (
    <>
      <details className="rounded-md border border-zinc-200 px-2 py-1 text-sm dark:border-zinc-800" data-testid="collection-environment">
        <summary className="cursor-pointer text-xs">
          Environment: {env.server ?? "this playground's server"}
          {env.headers?.length ? ` · headers ${env.headers.join(", ")}` : ""}
          {env.variables ? ` · ${plural(Object.keys(env.variables).length, "variable")}` : ""}
        </summary>
        <div className="mt-2 space-y-2">
          <p className="text-xs text-zinc-600 dark:text-zinc-400">
            {env.server
              ? `toolscope test runs against ${env.server} unless --server says otherwise.`
              : "The file names no server (a built-in or local one is not a URL): give toolscope test --server."}
          </p>
          <EnvField
            label="Header names the server needs (names only: values come from this tab's Headers, or from --header-env in CI)"
            value={(env.headers ?? []).join(", ")}
            edit={(text) => withHeaderNames(collection, text)}
            onChange={onChange}
            rows={1}
            testId="collection-header-names"
          />
          {headerNames.length > 0 && (
            <button
              type="button"
              className="rounded border border-zinc-300 px-1.5 py-0.5 text-xs hover:bg-zinc-50 dark:border-zinc-700 dark:hover:bg-zinc-800"
              onClick={() => {
                const r = withHeaderNames(collection, [...(env.headers ?? []), ...headerNames].join(","));
                if (r.ok) onChange(r.collection);
              }}
              data-testid="collection-use-tab-headers"
            >
              Add this tab&apos;s header names ({headerNames.join(", ")})
            </button>
          )}
          <EnvField
            label='Variables before the first call (a JSON object, e.g. {"team": "platform"}; a capture of the same name replaces one)'
            value={env.variables ? JSON.stringify(env.variables, null, 2) : ""}
            edit={(text) => withVariables(collection, text)}
            onChange={onChange}
            rows={1}
            testId="collection-variables"
          />
        </div>
      </details>
      {missing.length > 0 && (
        <p role="status" className="mt-1 text-xs text-amber-800 dark:text-amber-300" data-testid="collection-missing-headers">
          This collection needs {missing.join(", ")}: add {missing.length === 1 ? "it" : "them"} under Headers, or its calls may be refused.
        </p>
      )}
    </>
  );
}
