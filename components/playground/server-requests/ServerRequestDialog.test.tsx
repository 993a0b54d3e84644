import { afterEach, mock, test } from "node:test";
import assert from "node:assert/strict";
import { act, cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import type { InputRequest } from "@/lib/playground/server-requests/mrtr";
import type { ServerAsk } from "@/lib/playground/server-requests/server-requests";
import { ServerRequestDialog } from "./ServerRequestDialog";

afterEach(() => {
  cleanup();
  mock.timers.reset();
});

const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);

/** An InputRequest without its key (the dialog keys it by the pending id). */
type Input = InputRequest extends infer R ? (R extends unknown ? Omit<R, "key"> : never) : never;

function ask(pendingId: string, input: Input, over: Partial<ServerAsk> = {}): ServerAsk {
  const method = input.kind === "sampling" ? "sampling/createMessage" : input.kind === "roots" ? "roots/list" : "elicitation/create";
  return {
    streamId: "s1",
    pendingId,
    method,
    request: { method },
    input: { key: pendingId, ...input } as InputRequest,
    timeoutMs: 90_000,
    receivedAt: T0,
    deadline: T0 + 90_000,
    ...over,
  };
}
const urlAsk = (id: string, over?: Partial<ServerAsk>) =>
  ask(id, { kind: "elicit-url", message: "Sign in", url: "https://example.com/login" }, over);
const samplingAsk = (id: string) =>
  ask(id, { kind: "sampling", params: { messages: [{ role: "user", content: { type: "text", text: "Hi?" } }] } });

/** Escape on a modal dialog: the browser fires a cancelable `cancel` event at it. */
const escape = (dialog: HTMLElement) => act(() => void fireEvent(dialog, new window.Event("cancel", { cancelable: true })));

test("shows who asks, the method, the kind's title and how many more wait", () => {
  render(
    <ServerRequestDialog
      asks={[urlAsk("p1"), samplingAsk("p2"), samplingAsk("p3")]}
      serverLabel="Demo (http://x/mcp)"
      onAnswer={() => {}}
      onCancelCall={() => {}}
    />,
  );
  const dialog = screen.getByTestId("server-request-dialog");
  assert.equal((dialog as HTMLDialogElement).open, true, "opened as a modal on mount");
  assert.equal(screen.getByTestId("server-request-server").textContent, "Demo (http://x/mcp)");
  assert.equal(screen.getByTestId("server-request-queue").textContent, "· 2 more waiting");
  assert.ok(within(dialog).getByText("elicitation/create"));
  assert.ok(within(dialog).getByRole("heading", { name: "The server asks you to open a page" }));
  assert.equal(dialog.querySelector("[data-pending-id]")?.getAttribute("data-pending-id"), "p1", "the oldest is shown first");
});

test("the countdown runs down to the deadline, then says the time is up", () => {
  mock.timers.enable({ apis: ["setInterval", "Date"], now: T0 });
  render(<ServerRequestDialog asks={[urlAsk("p1")]} serverLabel="Demo" onAnswer={() => {}} onCancelCall={() => {}} />);
  const deadline = () => screen.getByTestId("server-request-deadline").textContent ?? "";
  assert.match(deadline(), /^1:30 left/);
  act(() => mock.timers.tick(31_000));
  assert.match(deadline(), /^59 s left/);
  act(() => mock.timers.tick(59_000));
  assert.match(deadline(), /^Time is up/);
  assert.match(screen.getByTestId("server-request-paused").textContent ?? "", /The call is paused, waiting for your answer\./);
});

test("no countdown when the proxy has no timeout", () => {
  render(<ServerRequestDialog asks={[urlAsk("p1", { timeoutMs: 0 })]} serverLabel="Demo" onAnswer={() => {}} onCancelCall={() => {}} />);
  assert.ok(screen.getByTestId("server-request-paused"));
  assert.equal(screen.queryByTestId("server-request-deadline"), null);
});

test("Escape cancels an elicitation (its cancel action)", () => {
  const answers: [string, unknown][] = [];
  render(
    <ServerRequestDialog
      asks={[urlAsk("p1")]}
      serverLabel="Demo"
      onAnswer={(a, r) => answers.push([a.pendingId, r])}
      onCancelCall={() => {}}
    />,
  );
  escape(screen.getByTestId("server-request-dialog"));
  assert.deepEqual(answers, [["p1", { action: "cancel" }]]);
  assert.equal(
    (screen.getByTestId("server-request-dialog") as HTMLDialogElement).open,
    true,
    "the dialog stays until the parent drops the request",
  );
});

test("Escape leaves a sampling request unanswered (null: the server gets an error)", () => {
  const answers: [string, unknown][] = [];
  render(
    <ServerRequestDialog
      asks={[samplingAsk("p2")]}
      serverLabel="Demo"
      onAnswer={(a, r) => answers.push([a.pendingId, r])}
      onCancelCall={() => {}}
    />,
  );
  escape(screen.getByTestId("server-request-dialog"));
  assert.deepEqual(answers, [["p2", null]]);
});

test("answering: a URL elicitation's Done accepts; a sampling reply is sent as the model's", () => {
  const answers: [string, unknown][] = [];
  const onAnswer = (a: ServerAsk, r: Record<string, unknown> | null) => answers.push([a.pendingId, r]);
  const { rerender } = render(
    <ServerRequestDialog asks={[urlAsk("p1"), samplingAsk("p2")]} serverLabel="Demo" onAnswer={onAnswer} onCancelCall={() => {}} />,
  );
  act(() => void fireEvent.click(screen.getByTestId("elicit-url-done")));
  // The parent drops the answered request: the next one in the queue is shown.
  rerender(<ServerRequestDialog asks={[samplingAsk("p2")]} serverLabel="Demo" onAnswer={onAnswer} onCancelCall={() => {}} />);
  assert.equal(screen.queryByTestId("server-request-queue"), null);
  const reply = within(screen.getByTestId("sampling-step")).getByRole("textbox", { name: "Your reply, as the model" });
  assert.equal(document.activeElement, reply, "the new step's first field has the focus");
  act(() => void fireEvent.change(reply, { target: { value: "Hello" } }));
  act(() => void fireEvent.click(screen.getByRole("button", { name: "Send reply" })));
  assert.deepEqual(answers, [
    ["p1", { action: "accept" }],
    ["p2", { role: "assistant", content: { type: "text", text: "Hello" }, model: "toolscope-human", stopReason: "endTurn" }],
  ]);
});

test("Cancel the call stops the whole call", () => {
  let cancelled = 0;
  render(<ServerRequestDialog asks={[urlAsk("p1")]} serverLabel="Demo" onAnswer={() => {}} onCancelCall={() => cancelled++} />);
  act(() => void fireEvent.click(screen.getByTestId("server-request-cancel-call")));
  assert.equal(cancelled, 1);
});

test("the focus goes back where it was when the dialog goes", () => {
  const before = document.createElement("button");
  before.textContent = "editor";
  document.body.append(before);
  before.focus();
  const { unmount } = render(
    <ServerRequestDialog asks={[samplingAsk("p2")]} serverLabel="Demo" onAnswer={() => {}} onCancelCall={() => {}} />,
  );
  assert.notEqual(document.activeElement, before);
  unmount();
  assert.equal(document.activeElement, before);
  before.remove();
});

/** Every invisible or direction-changing character visibleText marks (lib/mcp/visible-text.ts). */
const HIDDEN = /[\u00AD\u061C\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]|\uDB40[\uDC00-\uDC7F]/;
const RLO = "\u202E";

test("the server's text is shown with bidi controls as visible marks, in every kind of request, with a note", () => {
  const asks = [
    // "…continue\u202Emoc.elgoog" would read "…continuegoogle.com"; an unparseable URL is shown as written.
    ask("url", { kind: "elicit-url", message: `Sign in to continue${RLO}moc.elgoog`, url: `https://exa mple${RLO}moc.elgoog/` }),
    ask("form", {
      kind: "elicit-form",
      message: `Confirm the payee${RLO}lapyap`,
      requestedSchema: {
        type: "object",
        properties: {
          [`acc${RLO}ount`]: { type: "string", description: `Your IBAN${RLO}nabi`, default: `x${RLO}y` },
          payee: { type: "string", title: `Pay${RLO}ee`, enum: [`evil${RLO}moc.lapyap`, "other"], enumNames: [`A${RLO}B`] },
          mode: { type: "string", oneOf: [{ const: "a", title: `Fast${RLO}tsaf` }, { const: `b${RLO}` }] },
        },
      },
    }),
    ask("sampling", {
      kind: "sampling",
      params: { systemPrompt: `Be nice${RLO}`, messages: [{ role: `user${RLO}`, content: { type: "text", text: `Hi${RLO}iH` } }] },
    }),
    ask("other", { kind: "unknown", method: `x/${RLO}y`, reason: `odd${RLO}` }, { method: `x/${RLO}y` }),
  ];
  for (const a of asks) {
    render(<ServerRequestDialog asks={[a]} serverLabel={`Demo${RLO}omed (http://x/mcp)`} onAnswer={() => {}} onCancelCall={() => {}} />);
    const dialog = screen.getByTestId("server-request-dialog");
    const text = dialog.textContent ?? "";
    assert.doesNotMatch(text, HIDDEN, `${a.pendingId}: ${JSON.stringify(text)}`);
    assert.match(text, /⟪U\+202E⟫/, a.pendingId);
    assert.match(screen.getByTestId("hidden-chars-note").textContent ?? "", /invisible or direction-changing characters \(U\+202E\)/);
    // Attributes the browser shows (tooltips, labels) carry no hidden characters either.
    for (const el of dialog.querySelectorAll("*"))
      for (const attr of ["title", "aria-label", "placeholder"])
        assert.doesNotMatch(el.getAttribute(attr) ?? "", HIDDEN, `${a.pendingId} ${attr}`);
    cleanup();
  }
  render(<ServerRequestDialog asks={[asks[0]]} serverLabel="Demo" onAnswer={() => {}} onCancelCall={() => {}} />);
  assert.equal(screen.getByTestId("elicitation-url-message").textContent, "Sign in to continue⟪U+202E⟫moc.elgoog");
});

test("marks are for people only: the answer carries the server's values exactly", () => {
  const answers: unknown[] = [];
  const form = ask("form", {
    kind: "elicit-form",
    message: "Pick",
    requestedSchema: {
      type: "object",
      properties: { payee: { type: "string", enum: [`evil${RLO}moc`, "other"], default: `evil${RLO}moc` } },
    },
  });
  render(<ServerRequestDialog asks={[form]} serverLabel="Demo" onAnswer={(_a, r) => answers.push(r)} onCancelCall={() => {}} />);
  assert.match(screen.getByLabelText<HTMLSelectElement>(/^payee/).selectedOptions[0].text, /^evil⟪U\+202E⟫moc$/);
  act(() => void fireEvent.click(screen.getByTestId("elicit-submit")));
  assert.deepEqual(answers, [{ action: "accept", content: { payee: `evil${RLO}moc` } }]);
});
