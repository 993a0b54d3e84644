import { afterEach, test } from "node:test";
import assert from "node:assert/strict";
import { act, cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import type { InputRequest } from "@/lib/playground/server-requests/mrtr";
import { MrtrDialog } from "./MrtrDialog";

afterEach(cleanup);

const url: InputRequest = { key: "login", kind: "elicit-url", message: "Sign in first", url: "https://example.com/login" };
const unknown: InputRequest = { key: "weird", kind: "unknown", method: "x/y", reason: "an unknown method" };
const sampling: InputRequest = {
  key: "ask",
  kind: "sampling",
  params: { messages: [{ role: "user", content: { type: "text", text: "Capital of France?" } }] },
};

function renderDialog(requests: InputRequest[], over: { repeated?: boolean; round?: number } = {}) {
  const done: Record<string, unknown>[] = [];
  let abandoned = 0;
  render(
    <MrtrDialog
      requests={requests}
      serverLabel="Demo (http://x/mcp)"
      round={over.round ?? 1}
      maxRounds={8}
      repeated={over.repeated ?? false}
      onDone={(a) => done.push(a)}
      onAbandon={() => abandoned++}
    />,
  );
  return { done, abandoned: () => abandoned, dialog: screen.getByTestId("mrtr-dialog") };
}
const escape = (dialog: HTMLElement) => act(() => void fireEvent(dialog, new window.Event("cancel", { cancelable: true })));

test("names the server, the round and the step", () => {
  const { dialog } = renderDialog([url, sampling], { round: 2 });
  assert.equal((dialog as HTMLDialogElement).open, true);
  assert.equal(screen.getByTestId("mrtr-server").textContent, "Demo (http://x/mcp)");
  assert.match(dialog.textContent ?? "", /round 2 of at most 8/);
  assert.match(dialog.textContent ?? "", /request 1 of 2/);
  assert.ok(within(dialog).getByRole("heading", { name: "The server asks you to open a page" }));
  assert.ok(within(dialog).getByText("login"), "the server's key is shown");
});

test("one step per request; the answers are handed over together after the last, skipped ones left out", () => {
  const { done, dialog } = renderDialog([unknown, url, sampling]);
  assert.ok(screen.getByTestId("unknown-step"));
  act(() => void fireEvent.click(within(dialog).getByRole("button", { name: "Continue" })));
  assert.match(dialog.textContent ?? "", /request 2 of 3/);
  act(() => void fireEvent.click(screen.getByTestId("elicit-url-done")));
  assert.match(dialog.textContent ?? "", /request 3 of 3/);
  assert.equal(done.length, 0, "nothing is sent before the last step");
  const reply = within(screen.getByTestId("sampling-step")).getByRole("textbox", { name: "Your reply, as the model" });
  act(() => void fireEvent.change(reply, { target: { value: "Paris" } }));
  act(() => void fireEvent.click(within(dialog).getByRole("button", { name: "Send reply" })));
  assert.deepEqual(done, [
    {
      login: { action: "accept" },
      ask: { role: "assistant", content: { type: "text", text: "Paris" }, model: "toolscope-human", stopReason: "endTurn" },
    },
  ]);
});

test("a single request: its answer finishes at once, with no step count", () => {
  const { done, dialog } = renderDialog([url]);
  assert.doesNotMatch(dialog.textContent ?? "", /request 1 of/);
  act(() => void fireEvent.click(within(dialog).getByRole("button", { name: "Decline" })));
  assert.deepEqual(done, [{ login: { action: "decline" } }]);
});

test("Escape cancels an elicitation and goes on; on a sampling step it leaves it unanswered", () => {
  const { done, dialog } = renderDialog([url, sampling]);
  escape(dialog);
  assert.match(dialog.textContent ?? "", /request 2 of 2/);
  escape(dialog);
  assert.deepEqual(done, [{ login: { action: "cancel" } }]);
});

test("the 'asked exactly this before' notice shows on the first step only", () => {
  const { dialog } = renderDialog([unknown, url], { repeated: true });
  assert.ok(screen.getByTestId("mrtr-repeated"));
  act(() => void fireEvent.click(within(dialog).getByRole("button", { name: "Continue" })));
  assert.equal(screen.queryByTestId("mrtr-repeated"), null);
});

test("Stop without retrying abandons, without answers", () => {
  const r = renderDialog([url, sampling]);
  act(() => void fireEvent.click(screen.getByTestId("mrtr-abandon")));
  assert.equal(r.abandoned(), 1);
  assert.deepEqual(r.done, []);
});

test("the server's key, label and text show bidi controls as visible marks", () => {
  const rlo = "\u202E";
  render(
    <MrtrDialog
      requests={[{ key: `log${rlo}in`, kind: "elicit-url", message: `Continue${rlo}moc.elgoog`, url: "https://example.com/" }]}
      serverLabel={`Demo${rlo} (http://x/mcp)`}
      round={1}
      maxRounds={8}
      repeated={false}
      onDone={() => {}}
      onAbandon={() => {}}
    />,
  );
  const text = screen.getByTestId("mrtr-dialog").textContent ?? "";
  assert.ok(!text.includes(rlo), JSON.stringify(text));
  assert.equal(screen.getByTestId("mrtr-server").textContent, "Demo⟪U+202E⟫ (http://x/mcp)");
  assert.match(text, /log⟪U\+202E⟫in/);
  assert.match(text, /Continue⟪U\+202E⟫moc\.elgoog/);
  assert.ok(screen.getByTestId("hidden-chars-note"));
});
