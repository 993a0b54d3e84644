import { afterEach, test } from "node:test";
import assert from "node:assert/strict";
import { useState } from "react";
import { act, cleanup, render, screen } from "@testing-library/react";
import { Modal } from "./Modal";
import { FOCUS_HOME_ATTR } from "./useModalDialog";

afterEach(() => {
  cleanup();
  document.body.replaceChildren();
});

/** An "editor" (the focus home) and a button outside the dialogs, as on the playground page. */
function page() {
  // Like JsonEditor: the box is focusable (tabindex -1) and passes the focus on to the editor inside.
  const home = document.createElement("div");
  home.setAttribute(FOCUS_HOME_ATTR, "");
  home.tabIndex = -1;
  const input = document.createElement("textarea");
  home.append(input);
  home.addEventListener("focus", (e) => {
    if (e.target === home) input.focus();
  });
  const button = document.createElement("button");
  button.textContent = "Commands";
  document.body.append(home, button);
  return { input, button };
}

type Open = "palette" | "share" | null;

/** One overlay at a time, like the playground's reducer: `switchTo` closes the palette and opens Share in one render. */
function Overlays({ initial, expose }: { initial: Open; expose: (set: (o: Open) => void) => void }) {
  const [open, setOpen] = useState<Open>(initial);
  expose(setOpen);
  return (
    <>
      {open === "palette" && (
        <Modal title="Palette" onClose={() => setOpen(null)}>
          <input data-autofocus aria-label="filter" />
        </Modal>
      )}
      {open === "share" && (
        <Modal title="Share" onClose={() => setOpen(null)}>
          <input data-autofocus aria-label="link" />
        </Modal>
      )}
    </>
  );
}

function mount(initial: Open) {
  let set: (o: Open) => void = () => {};
  render(<Overlays initial={initial} expose={(s) => (set = s)} />);
  return (o: Open) => act(() => set(o));
}

test("closing a dialog gives the focus back to the element focused when it opened", () => {
  const { button } = page();
  button.focus();
  const set = mount("palette");
  assert.equal(document.activeElement, screen.getByLabelText("filter"));
  set(null);
  assert.equal(document.activeElement, button);
});

test("an origin that is gone (or nothing focused) sends the focus to the editor, never to <body>", () => {
  const { input, button } = page();
  button.focus();
  const set = mount("palette");
  button.remove();
  set(null);
  assert.equal(document.activeElement, input);

  (document.activeElement as HTMLElement).blur();
  const again = mount("palette");
  again(null);
  assert.equal(document.activeElement, input);
});

test("a dialog opened as another closes (Share from the palette) takes the origin over", () => {
  const { button } = page();
  button.focus();
  const set = mount("palette");
  set("share");
  assert.equal(document.activeElement, screen.getByLabelText("link"));
  set(null);
  assert.equal(document.activeElement, button, "back where the palette was opened from");
});
