"use client";

import { useEffect, useRef, useState } from "react";
import { DeprecationNotes } from "@/components/ui/DeprecationNotes";
import { serverRequestDeprecations } from "@/lib/mcp/deprecations";
import {
  elicitResult,
  parseRootLines,
  rootsResult,
  SAMPLING_MODEL_NAME,
  samplingPrompt,
  samplingResult,
  type InputRequest,
} from "@/lib/playground/server-requests/mrtr";
import { loadPrefs, savePrefs } from "@/lib/playground/stores/prefs-store";
import { invisibleChars, visibleText } from "@/lib/mcp/visible-text";
import { ElicitationFormStep } from "./ElicitationFormStep";
import { useDialogFocusReturn } from "../useModalDialog";

/**
 * The parts both "the server asks you" dialogs share: the MRTR dialog (input requests of an `input_required` result,
 * answered in the retry) and the server-request dialog (requests a server sends in the middle of a call, answered
 * through the proxy). One step per request kind (form, URL, sampling, roots, unknown), the Escape rule, and the modal
 * frame.
 */

/** "No answer" for a step: MRTR leaves the key out of the retry; a mid-call request gets an error. */
export const SKIP = Symbol("skip");
export type StepAnswer = Record<string, unknown> | typeof SKIP;

export const KIND_TITLE: Record<InputRequest["kind"], string> = {
  "elicit-form": "The server asks you to fill in a form",
  "elicit-url": "The server asks you to open a page",
  sampling: "The server asks the model to answer (you reply in its place)",
  roots: "The server asks for your roots",
  unknown: "A request the playground cannot answer",
};

/** Escape: the user dismissed the request without an explicit choice (an elicitation's `cancel` action; other requests go unanswered). */
export function escapeAnswer(request: InputRequest): StepAnswer {
  return request.kind === "elicit-form" || request.kind === "elicit-url" ? elicitResult("cancel") : SKIP;
}

export const dialogClass =
  "m-auto w-[min(36rem,calc(100vw-2rem))] rounded-lg border border-zinc-200 bg-white p-0 text-zinc-900 shadow-xl backdrop:bg-black/40 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100";

/**
 * The modal `<dialog>` of an input dialog: opened on mount, kept open while mounted (Chrome may close a dialog on a
 * repeated Escape without letting us cancel it), Escape handed to `onEscape`. Each new step (`stepKey`) starts with the
 * focus on its first input (showModal would pick the first button); on unmount the focus goes back to where it was
 * (the editor, when the request was sent from it).
 */
export function InputDialogFrame({
  testId,
  labelledBy,
  stepKey,
  onEscape,
  children,
}: {
  testId: string;
  labelledBy: string;
  stepKey: string;
  onEscape: () => void;
  children: React.ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const mounted = useRef(false);
  useDialogFocusReturn(ref);
  useEffect(() => {
    const dialog = ref.current;
    mounted.current = true;
    if (dialog && !dialog.open) dialog.showModal();
    return () => {
      mounted.current = false;
      dialog?.close();
    };
  }, []);
  useEffect(() => {
    ref.current?.querySelector<HTMLElement>("[data-autofocus], [data-field]")?.focus();
  }, [stepKey]);
  return (
    <dialog
      ref={ref}
      onCancel={(e) => {
        e.preventDefault();
        onEscape();
      }}
      onClose={() => {
        if (mounted.current && ref.current && !ref.current.open) ref.current.showModal();
      }}
      aria-labelledby={labelledBy}
      data-testid={testId}
      className={dialogClass}
    >
      {children}
    </dialog>
  );
}

/**
 * The step for one request. `unknownNote` says what happens to a request the playground cannot answer (left out of
 * the MRTR retry, or refused with an error).
 */
export function InputRequestStep({
  request,
  onAnswer,
  unknownNote,
}: {
  request: InputRequest;
  onAnswer: (a: StepAnswer) => void;
  unknownNote: string;
}) {
  return (
    <>
      <HiddenCharsNote request={request} />
      <StepFor request={request} onAnswer={onAnswer} unknownNote={unknownNote} />
    </>
  );
}

/**
 * Said once above a request whose text (message, URL, prompt, form) holds invisible or direction-changing
 * characters: they are shown as ⟪U+…⟫ marks (visibleText), and the user should know why the text looks odd.
 */
function HiddenCharsNote({ request }: { request: InputRequest }) {
  const hidden = invisibleChars(JSON.stringify(request));
  if (hidden.length === 0) return null;
  return (
    <p
      role="note"
      data-testid="hidden-chars-note"
      className="mb-2 rounded-md bg-amber-50 px-2 py-1 text-xs text-amber-900 dark:bg-amber-950/50 dark:text-amber-200"
    >
      The server&apos;s text holds invisible or direction-changing characters ({hidden.slice(0, 6).join(", ")}), shown as ⟪U+…⟫ marks: they
      can make text, a link or a domain read as something it is not. Check it carefully.
    </p>
  );
}

function StepFor({ request, onAnswer, unknownNote }: { request: InputRequest; onAnswer: (a: StepAnswer) => void; unknownNote: string }) {
  switch (request.kind) {
    case "elicit-form":
      return <ElicitationFormStep message={request.message} requestedSchema={request.requestedSchema} onAnswer={onAnswer} />;
    case "elicit-url":
      return <UrlStep message={request.message} url={request.url} onAnswer={onAnswer} />;
    // Sampling and roots are deprecated in 2026-07-28: said once, in the dialog that answers them.
    case "sampling":
      return (
        <>
          <DeprecationNotes
            items={serverRequestDeprecations({ method: "sampling/createMessage", params: request.params })}
            testId="request-deprecations"
            className="mb-3"
          />
          <SamplingStep params={request.params} onAnswer={onAnswer} />
        </>
      );
    case "roots":
      return (
        <>
          <DeprecationNotes items={serverRequestDeprecations({ method: "roots/list" })} testId="request-deprecations" className="mb-3" />
          <RootsStep onAnswer={onAnswer} />
        </>
      );
    case "unknown":
      return (
        <div className="space-y-3 text-sm" data-testid="unknown-step">
          <p>
            <code>{visibleText(request.method)}</code>: {visibleText(request.reason)}. {unknownNote}
          </p>
          <div className="text-right">
            <button
              type="button"
              data-autofocus
              onClick={() => onAnswer(SKIP)}
              className="rounded-md bg-accent-600 px-4 py-1.5 font-medium text-white"
            >
              Continue
            </button>
          </div>
        </div>
      );
  }
}

const buttonPrimary = "rounded-md bg-accent-600 px-4 py-1.5 text-sm font-medium text-white hover:bg-accent-700 disabled:opacity-50";
const buttonSecondary = "rounded-md border border-zinc-300 px-3 py-1.5 text-sm dark:border-zinc-700";
const buttonPlain = "rounded-md px-3 py-1.5 text-sm hover:bg-zinc-100 dark:hover:bg-zinc-800";

/** URL mode: the full URL with its host highlighted, opened only by the user's click; then "done". */
function UrlStep({ message, url, onAnswer }: { message: string; url: string; onAnswer: (a: StepAnswer) => void }) {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  const safe = parsed && (parsed.protocol === "https:" || parsed.protocol === "http:");
  const [opened, setOpened] = useState(false);
  return (
    <div className="space-y-3 text-sm" data-testid="elicitation-url">
      <p className="whitespace-pre-wrap" data-testid="elicitation-url-message">
        {visibleText(message)}
      </p>
      <div
        data-testid="elicitation-url-target"
        className="rounded-md border border-zinc-200 bg-zinc-50 p-2 font-mono text-xs break-all dark:border-zinc-700 dark:bg-zinc-950"
      >
        {parsed ? (
          <>
            <span className="text-zinc-500">
              {parsed.protocol}
              {"//"}
            </span>
            <strong className="text-zinc-900 dark:text-zinc-100">{parsed.host}</strong>
            <span className="text-zinc-500">
              {parsed.pathname}
              {parsed.search}
              {parsed.hash}
            </span>
          </>
        ) : (
          visibleText(url)
        )}
      </div>
      {parsed?.hostname.includes("xn--") && (
        <p className="text-xs text-amber-800 dark:text-amber-300">
          The host uses Punycode (xn--): it may imitate another domain. Check it carefully.
        </p>
      )}
      {parsed?.protocol === "http:" && <p className="text-xs text-amber-800 dark:text-amber-300">This page is not served over HTTPS.</p>}
      {!safe && <p className="text-xs text-red-700 dark:text-red-400">This is not an http(s) URL, so the playground will not open it.</p>}
      <div className="flex flex-wrap items-center justify-end gap-2">
        {safe && (
          <a href={parsed!.href} target="_blank" rel="noopener noreferrer" onClick={() => setOpened(true)} className={buttonSecondary}>
            Open {parsed!.host} ↗
          </a>
        )}
        <button type="button" onClick={() => onAnswer(elicitResult("cancel"))} className={buttonPlain}>
          Cancel
        </button>
        <button type="button" onClick={() => onAnswer(elicitResult("decline"))} className={buttonSecondary}>
          Decline
        </button>
        <button
          type="button"
          onClick={() => onAnswer(elicitResult("accept"))}
          className={buttonPrimary}
          disabled={!safe}
          data-testid="elicit-url-done"
          title={opened ? undefined : "Open the page first, or accept without opening it"}
        >
          Done
        </button>
      </div>
    </div>
  );
}

/** Sampling: the prompt, and a reply the user types in place of the model (a CreateMessageResult). */
function SamplingStep({ params, onAnswer }: { params: Record<string, unknown>; onAnswer: (a: StepAnswer) => void }) {
  const [reply, setReply] = useState("");
  const [model, setModel] = useState(SAMPLING_MODEL_NAME);
  const prompt = samplingPrompt(params);
  return (
    <form
      className="space-y-3 text-sm"
      onSubmit={(e) => {
        e.preventDefault();
        if (reply.trim()) onAnswer(samplingResult(reply, model.trim() || SAMPLING_MODEL_NAME));
      }}
      data-testid="sampling-step"
    >
      {typeof params.systemPrompt === "string" && (
        <p className="text-xs text-zinc-500">
          System prompt: <span className="whitespace-pre-wrap text-zinc-800 dark:text-zinc-200">{visibleText(params.systemPrompt)}</span>
        </p>
      )}
      <ol className="space-y-1">
        {prompt.map((m, i) => (
          <li key={i} className="rounded-md bg-zinc-50 p-2 dark:bg-zinc-950">
            <span className="text-xs font-semibold uppercase text-zinc-500">{visibleText(m.role)}</span>
            <p className="whitespace-pre-wrap">{visibleText(m.text)}</p>
          </li>
        ))}
      </ol>
      {typeof params.maxTokens === "number" && <p className="text-xs text-zinc-500">At most {params.maxTokens} tokens.</p>}
      <label className="block">
        <span className="mb-0.5 block font-medium">Your reply, as the model</span>
        <textarea
          data-autofocus
          value={reply}
          onChange={(e) => setReply(e.target.value)}
          rows={4}
          className="w-full rounded-md border border-zinc-300 bg-white p-2 dark:border-zinc-700 dark:bg-zinc-900"
        />
      </label>
      <label className="flex items-center gap-2 text-xs">
        Model name{" "}
        <input
          value={model}
          onChange={(e) => setModel(e.target.value)}
          className="rounded border border-zinc-300 bg-white px-1 py-0.5 font-mono dark:border-zinc-700 dark:bg-zinc-900"
        />
      </label>
      <div className="flex justify-end gap-2">
        <button type="button" onClick={() => onAnswer(SKIP)} className={buttonSecondary}>
          Leave unanswered
        </button>
        <button type="submit" disabled={!reply.trim()} className={buttonPrimary}>
          Send reply
        </button>
      </div>
    </form>
  );
}

/** Roots: the user's configured list (remembered in this browser), editable here. */
function RootsStep({ onAnswer }: { onAnswer: (a: StepAnswer) => void }) {
  const [text, setText] = useState(() =>
    loadPrefs()
      .roots.map((r) => (r.name ? `${r.uri} ${r.name}` : r.uri))
      .join("\n"),
  );
  const parsed = parseRootLines(text);
  return (
    <form
      className="space-y-3 text-sm"
      onSubmit={(e) => {
        e.preventDefault();
        if (parsed.errors.length) return;
        savePrefs({ roots: parsed.roots });
        onAnswer(rootsResult(parsed.roots));
      }}
      data-testid="roots-step"
    >
      <label className="block">
        <span className="mb-0.5 block font-medium">
          Roots, one per line: <code>file:///path</code> and an optional name
        </span>
        <textarea
          data-autofocus
          value={text}
          onChange={(e) => setText(e.target.value)}
          rows={4}
          placeholder="file:///home/me/project My project"
          className="w-full rounded-md border border-zinc-300 bg-white p-2 font-mono text-xs dark:border-zinc-700 dark:bg-zinc-900"
        />
      </label>
      {parsed.errors.map((e, i) => (
        <p key={i} className="text-xs text-red-700 dark:text-red-400">
          {e}
        </p>
      ))}
      <p className="text-xs text-zinc-500">
        Remembered in this browser for the next roots request. {parsed.roots.length} root{parsed.roots.length === 1 ? "" : "s"} will be
        sent.
      </p>
      <div className="flex justify-end gap-2">
        <button type="button" onClick={() => onAnswer(SKIP)} className={buttonSecondary}>
          Leave unanswered
        </button>
        <button type="submit" disabled={parsed.errors.length > 0} className={buttonPrimary}>
          Send roots
        </button>
      </div>
    </form>
  );
}
