"use client";

import { useMemo, useState } from "react";
import { codeFor, type CodeInput, type CodeLanguage } from "@/lib/codegen/copy-as-code";
import { CopyButton } from "@/components/ui/CopyButton";
import { Modal } from "../Modal";

const LANGUAGES: { id: CodeLanguage; label: string }[] = [
  { id: "curl", label: "curl" },
  { id: "fetch", label: "fetch" },
  { id: "typescript", label: "TypeScript (SDK)" },
];

interface Props {
  /** The input for the generators, or an error when the editor text is not a JSON object. */
  input: CodeInput | { error: string };
  initial?: CodeLanguage;
  onClose: () => void;
}

/** The request as curl, fetch or an SDK snippet. User header values never appear: they are environment placeholders. */
export function CopyAsCodeDialog({ input, initial = "curl", onClose }: Props) {
  const [language, setLanguage] = useState<CodeLanguage>(initial);
  const code = useMemo(() => ("error" in input ? "" : codeFor(language, input)), [input, language]);
  return (
    <Modal title="Copy as code" onClose={onClose} testId="copy-as-code" widthClass="w-[min(52rem,calc(100vw-2rem))]">
      {"error" in input ? (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {input.error}
        </p>
      ) : (
        <>
          <div role="radiogroup" aria-label="Language" className="mb-2 flex flex-wrap items-center gap-1">
            {LANGUAGES.map((l) => (
              <label
                key={l.id}
                className={`cursor-pointer rounded-md border px-2 py-1 text-sm ${language === l.id ? "border-accent-600 bg-accent-50 dark:bg-accent-700/20" : "border-zinc-200 dark:border-zinc-700"}`}
              >
                <input
                  type="radio"
                  name="code-language"
                  value={l.id}
                  checked={language === l.id}
                  onChange={() => setLanguage(l.id)}
                  className="sr-only"
                />
                {l.label}
              </label>
            ))}
            <span className="ml-auto" />
            <CopyButton text={code} testId="copy-code" />
          </div>
          <pre
            data-testid="code-snippet"
            tabIndex={0}
            className="max-h-[60vh] overflow-auto rounded-md bg-zinc-50 p-3 font-mono text-xs dark:bg-zinc-950"
          >
            {code}
          </pre>
          {input.transport === "sse" && (
            <p className="mt-2 text-xs text-zinc-500" data-testid="sse-code-note">
              This server speaks the deprecated HTTP+SSE transport: a POST only hands the message over, and the answer arrives on the event
              stream. So the snippet opens the stream, initializes a session of its own, posts to the endpoint the stream names and reads
              the answer from it.
            </p>
          )}
          {(input.userHeaderNames?.length ?? 0) > 0 && (
            <p className="mt-2 text-xs text-zinc-500">
              Your headers ({input.userHeaderNames!.join(", ")}) appear as environment variables; their values are never copied.
            </p>
          )}
        </>
      )}
    </Modal>
  );
}
