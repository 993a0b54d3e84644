import { afterEach, test } from "node:test";
import assert from "node:assert/strict";
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { ConfirmDestructiveDialog } from "./ConfirmDestructiveDialog";

afterEach(cleanup);

function renderDialog() {
  const confirmed: boolean[] = [];
  let cancelled = 0;
  render(
    <ConfirmDestructiveDialog
      toolName="delete_issue"
      summary="may be destructive"
      onConfirm={(d) => confirmed.push(d)}
      onCancel={() => cancelled++}
    />,
  );
  return { confirmed, cancelled: () => cancelled, dialog: screen.getByTestId("confirm-destructive") as HTMLDialogElement };
}

test("names the tool and its hints; Cancel has the focus, so Enter sends nothing", () => {
  const { dialog } = renderDialog();
  assert.equal(dialog.open, true);
  assert.match(dialog.textContent ?? "", /delete_issue may delete or overwrite data on the server \(may be destructive\)/);
  assert.equal(document.activeElement, screen.getByRole("button", { name: "Cancel" }));
});

test("Send anyway confirms, asking again next time unless 'don't ask again' is ticked", () => {
  const a = renderDialog();
  act(() => void fireEvent.click(screen.getByTestId("confirm-send")));
  cleanup();
  const b = renderDialog();
  act(() => void fireEvent.click(screen.getByTestId("confirm-dont-ask")));
  act(() => void fireEvent.click(screen.getByTestId("confirm-send")));
  assert.deepEqual(a.confirmed, [false]);
  assert.deepEqual(b.confirmed, [true]);
});

test("Cancel and Escape send nothing", () => {
  const r = renderDialog();
  act(() => void fireEvent.click(screen.getByRole("button", { name: "Cancel" })));
  act(() => void fireEvent(r.dialog, new window.Event("cancel", { cancelable: true })));
  assert.equal(r.cancelled(), 2);
  assert.deepEqual(r.confirmed, []);
});
