"use client";

import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent } from "react";
import type { JsonEditorHandle, JsonEditorProps } from "./JsonEditor";
import { EDITOR_ARIA_LABEL, EDITOR_FONT_FAMILY, EDITOR_FONT_SIZE, EDITOR_LINE_HEIGHT } from "./editor-look";
import { FOCUS_HOME_ATTR } from "../useModalDialog";
import { whenIdle } from "../when-idle";

type EditorModule = typeof import("./JsonEditor");

let editorModule: EditorModule | null = null;
let editorLoad: Promise<EditorModule> | null = null;

/**
 * Monaco's chunks, fetched once: the editor and its contributions side by side (monaco-features.ts says why apart),
 * both in before any editor is created. A failed fetch (offline, a new deployment) is tried again by the next caller.
 */
function loadEditor(): Promise<EditorModule> {
  editorLoad ??= Promise.all([import("./JsonEditor"), import("./monaco-features")]).then(
    ([m]) => (editorModule = m),
    (err: unknown) => {
      editorLoad = null;
      throw err;
    },
  );
  return editorLoad;
}

/** Longest wait for an idle moment before Monaco is loaded anyway (a page that is never idle still gets it). */
const MONACO_IDLE_TIMEOUT_MS = 1_500;

/** Monaco's gutter at 13 px with `lineNumbersMinChars: 3` and folding: where its text starts, so the text does not move. */
const GUTTER_PX = 49;
const NUMBER_RIGHT_PX = 26;

/**
 * The request editor. Until Monaco has arrived and started, a plain textarea shows the text and takes typing (same
 * label, font, line height and onChange, so nothing typed is lost); then Monaco takes over its text, selection, scroll
 * position and focus. Same props as {@link JsonEditorProps}; the box takes `height`/`className`, so nothing moves.
 */
export function JsonEditorLoader({
  height = 320,
  className,
  contextPending = false,
  ...rest
}: JsonEditorProps & {
  /**
   * The server is still being connected, so `tools` and `era` are placeholders: the textarea stays and Monaco (its
   * diagnostics, completion and hovers need them) is mounted once they are real. Its chunks may load meanwhile.
   */
  contextPending?: boolean;
}) {
  const { value, onChange, onSend, readOnly } = rest;
  const [loaded, setLoaded] = useState<EditorModule | null>(editorModule);
  const [handle, setHandle] = useState<JsonEditorHandle | null>(null);
  const [plainGone, setPlainGone] = useState(false);
  const plain = useRef<HTMLTextAreaElement>(null);
  const gutter = useRef<HTMLDivElement>(null);

  // Monaco is asked for once the textarea is up and the page has a quiet moment, not at hydration: evaluating its
  // chunks holds the main thread for about half a second. At hydration that lands between the connect and the tool
  // list, which the first editor waits for; right after the textarea appears it would hold the first keystroke
  // (issue 15: typing ≤ 1 s after navigation). The textarea is a full editor meanwhile.
  useEffect(() => {
    if (loaded) return;
    let live = true;
    const load = () => {
      if (!live) return;
      loadEditor().then(
        (m) => live && setLoaded(m),
        // The textarea stays: the request can still be written and sent without Monaco.
        (err: unknown) => console.error("The editor could not be loaded; the plain text box stays.", err),
      );
    };
    const cancel = whenIdle(load, MONACO_IDLE_TIMEOUT_MS);
    return () => {
      live = false;
      cancel();
    };
  }, [loaded]);

  // Monaco is up and visible in this commit, the textarea still on top of it: hand over, then drop the textarea
  // before the browser paints either.
  useLayoutEffect(() => {
    const ta = plain.current;
    if (!handle || !ta) return;
    handle.takeOver({
      text: ta.value,
      selectionStart: ta.selectionStart,
      selectionEnd: ta.selectionEnd,
      backward: ta.selectionDirection === "backward",
      scrollTop: ta.scrollTop,
      focus: document.activeElement === ta,
    });
    setPlainGone(true);
  }, [handle]);

  const onPlainKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    // Ctrl/Cmd+Enter sends, as in Monaco (Ctrl/Cmd+K and S are the page's own and reach it from here too).
    if ((e.ctrlKey || e.metaKey) && !e.altKey && e.key === "Enter") {
      e.preventDefault();
      onSend?.();
    }
  };
  const Monaco = loaded?.JsonEditor;
  const lineCount = value.split("\n").length;

  return (
    <div
      data-testid="request-editor"
      // Where the focus goes when a dialog's origin is gone (useModalDialog): the box passes it on to the editor.
      {...(readOnly ? {} : { [FOCUS_HOME_ATTR]: "", tabIndex: -1 })}
      onFocus={(e) => {
        if (e.target !== e.currentTarget) return;
        if (handle) handle.focus();
        else plain.current?.focus();
      }}
      // A visible ring while the editor has the focus (Monaco draws none of its own; issue 26).
      className={`group relative overflow-hidden rounded-md border border-zinc-200 focus-within:ring-2 focus-within:ring-accent-600 dark:border-zinc-800 ${className ?? ""}`}
      style={{ height }}
    >
      {Monaco && !contextPending && <Monaco {...rest} height="100%" className={handle ? undefined : "invisible"} onReady={setHandle} />}
      {!plainGone && (
        <div
          className="absolute inset-0 flex bg-[#fffffe] text-black dark:bg-[#1e1e1e] dark:text-[#d4d4d4]"
          style={{ fontFamily: EDITOR_FONT_FAMILY, fontSize: EDITOR_FONT_SIZE, lineHeight: `${EDITOR_LINE_HEIGHT}px` }}
        >
          {/* Line numbers where Monaco draws its own, kept in step with the textarea's scrolling. */}
          <div
            ref={gutter}
            aria-hidden
            className="shrink-0 overflow-hidden text-right text-[#237893] select-none dark:text-[#858585]"
            style={{ width: GUTTER_PX, paddingRight: NUMBER_RIGHT_PX }}
          >
            {Array.from({ length: lineCount }, (_, i) => (
              <div key={i}>{i + 1}</div>
            ))}
          </div>
          <textarea
            ref={plain}
            value={value}
            onChange={(e) => onChange(e.target.value)}
            onKeyDown={onPlainKeyDown}
            onScroll={(e) => {
              if (gutter.current) gutter.current.scrollTop = e.currentTarget.scrollTop;
            }}
            readOnly={readOnly}
            aria-label={EDITOR_ARIA_LABEL}
            spellCheck={false}
            autoCapitalize="off"
            autoComplete="off"
            autoCorrect="off"
            wrap="off"
            className="h-full min-w-0 flex-1 resize-none overflow-auto border-0 bg-transparent p-0 outline-none [tab-size:2]"
            style={{ font: "inherit" }}
          />
        </div>
      )}
      {!readOnly && (
        // Said where the focus is, not only in the help: Tab indents here, so someone tabbing through the page needs
        // the way out (Monaco's tab-focus mode) at the moment Tab stops working as they expect.
        <p
          aria-hidden
          data-testid="editor-tab-hint"
          className="pointer-events-none absolute right-2 bottom-1 z-10 hidden rounded bg-zinc-800/85 px-1.5 text-[0.7rem] text-white group-focus-within:block"
        >
          Tab indents · Ctrl+M (Mac: Ctrl+Shift+M) lets Tab move on
        </p>
      )}
    </div>
  );
}
