"use client";

import type { ProxyErrorBody } from "@/lib/mcp/contract";
import type { SkillFile, SkillRefusal, SkillRefusalReason } from "@/lib/mcp/skills-contract";
import { bytesText, isMarkdownFile, shortDigest } from "@/lib/docs/skills/skill-facts";
import { Markdown } from "../Markdown";
import { ProxyErrorBanner } from "../ProxyErrorBanner";

/** One file's read, as the view holds it: never asked for, on its way, or what came back. */
export type SkillFileState =
  | { state: "loading" }
  | { state: "file"; file: SkillFile }
  | { state: "refused"; refused: SkillRefusal }
  | { state: "error"; error: ProxyErrorBody["error"] };

/** What the refusal's reason means, in a few words after the file's name. */
const REASONS: Record<SkillRefusalReason, string> = {
  digest: "its SHA-256 digest differs from the manifest",
  size: "its size differs from the manifest",
  frontmatter: "its frontmatter differs from the skill's entry",
  unlisted: "it is not in the skill's manifest",
  limit: "over Toolscope's skill limits",
};

function Refused({ path, refused }: { path: string; refused: SkillRefusal }) {
  return (
    <div
      role="alert"
      data-testid="skill-file-refused"
      data-reason={refused.reason}
      className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-900 dark:border-red-900 dark:bg-red-950/60 dark:text-red-200"
    >
      <p className="font-semibold">
        Refused: <code className="break-all">{path}</code>: {REASONS[refused.reason]}
        {refused.limit ? ` (${refused.limit})` : ""}.
      </p>
      <p className="mt-1 break-words" data-testid="skill-refusal-message">
        {refused.message}
      </p>
      {refused.differences && refused.differences.length > 0 && (
        <ul className="mt-1 list-disc pl-5 break-words">
          {refused.differences.map((d, i) => (
            <li key={i}>{d}</li>
          ))}
        </ul>
      )}
      {refused.hint && (
        <p className="mt-1 break-words text-red-800 dark:text-red-300">
          <span className="font-medium">Fix: </span>
          {refused.hint}
        </p>
      )}
      <p className="mt-1 text-xs text-red-800 dark:text-red-300">Its content is not shown: only a file that passes every check is.</p>
    </div>
  );
}

/** The line that says what was checked: size and digest against the manifest, or for a dynamic skill, that nothing could be. */
function Verified({ file }: { file: SkillFile }) {
  const digest = <span title={file.digest}>{shortDigest(file.digest)}</span>;
  return (
    <p
      className={`text-xs ${file.verified ? "text-emerald-800 dark:text-emerald-300" : "text-amber-900 dark:text-amber-300"}`}
      data-testid="skill-file-verified"
      data-verified={file.verified}
    >
      {file.verified ? (
        <>
          <span aria-hidden>✓ </span>verified: {bytesText(file.size)}, {digest}
          {file.frontmatter ? "; frontmatter identical to the entry's" : ""}
        </>
      ) : (
        <>
          not verifiable (dynamic skill): {bytesText(file.size)} as read, {digest}
          {file.frontmatter ? "; frontmatter identical to the entry's" : ""}
        </>
      )}
    </p>
  );
}

/** Bytes of a base64 string, for a download made only when asked. */
function download(name: string, base64: string) {
  const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  // Always application/octet-stream: the browser saves the file, it never renders what a server sent as a page.
  const url = URL.createObjectURL(new Blob([bytes], { type: "application/octet-stream" }));
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1_000);
}

function Body({ file, path }: { file: SkillFile; path: string }) {
  if (file.body !== undefined) return <Markdown source={file.body} testId="skill-file-markdown" />;
  if (file.text !== undefined)
    return isMarkdownFile(file.uri, file.mimeType) ? (
      <Markdown source={file.text} testId="skill-file-markdown" />
    ) : (
      <pre
        className="max-h-96 overflow-auto whitespace-pre-wrap break-words rounded-md bg-zinc-50 p-2 font-mono text-xs dark:bg-zinc-900"
        data-testid="skill-file-text"
      >
        {file.text}
      </pre>
    );
  const blob = file.blob ?? "";
  return (
    <p className="text-sm" data-testid="skill-file-binary">
      Binary file{file.mimeType ? ` (${file.mimeType})` : ""}, {bytesText(file.size)}: not shown.{" "}
      <button
        type="button"
        onClick={() => download(path.split("/").pop() || "file", blob)}
        className="font-medium text-accent-700 underline focus-visible:outline-2 focus-visible:outline-accent-600 dark:text-accent-100"
      >
        Download
      </button>
    </p>
  );
}

/** A file read through /api/skills: verified content, a refusal that names the file and why, or the API's error. */
export function SkillFileContent({ path, read }: { path: string; read: SkillFileState }) {
  switch (read.state) {
    case "loading":
      return (
        <p role="status" className="text-xs text-zinc-600 dark:text-zinc-400">
          Reading {path} and checking it against the manifest…
        </p>
      );
    case "error":
      return <ProxyErrorBanner error={read.error} />;
    case "refused":
      return <Refused path={path} refused={read.refused} />;
    case "file":
      return (
        <div className="min-w-0 space-y-2" data-testid="skill-file-content">
          <Verified file={read.file} />
          {/* A rule between Toolscope's words and the server's: what follows is the file. */}
          <div className="min-w-0 border-t border-zinc-200 pt-2 dark:border-zinc-800">
            <Body file={read.file} path={path} />
          </div>
        </div>
      );
  }
}
