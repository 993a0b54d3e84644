import { afterEach, test } from "node:test";
import assert from "node:assert/strict";
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { addToFeed, EMPTY_FEED } from "@/lib/playground/notification-feed";
import { NotificationsPane } from "./NotificationsPane";

afterEach(cleanup);

const feed = addToFeed(
  EMPTY_FEED,
  [
    { jsonrpc: "2.0", method: "notifications/message", params: { level: "info", logger: "reindex", data: "Reindex started" } },
    { jsonrpc: "2.0", method: "notifications/tools/list_changed" },
  ],
  "call",
  Date.now(),
);

function renderPane(open: boolean) {
  const calls = { open: [] as boolean[], seen: 0, cleared: 0 };
  render(
    <NotificationsPane
      feed={feed}
      listen={{ state: "off", reason: "Legacy server." }}
      open={open}
      onOpen={(o) => calls.open.push(o)}
      onSeen={() => calls.seen++}
      onClear={() => calls.cleared++}
    />,
  );
  return calls;
}

test("collapsed: the unseen count shows; opening marks them seen", () => {
  const calls = renderPane(false);
  assert.equal(screen.getByTestId("notifications-unseen").textContent, "2");
  assert.equal(screen.queryAllByTestId("notification-entry").length, 0);
  act(() => void fireEvent.click(screen.getByTestId("notifications-toggle")));
  assert.deepEqual(calls.open, [true]);
  assert.equal(calls.seen, 1);
});

test("open: newest first, kind chips and the text filter narrow the list, Clear asks to clear", () => {
  const calls = renderPane(true);
  const methods = () => screen.queryAllByTestId("notification-entry").map((e) => e.querySelector("code")?.textContent);
  assert.deepEqual(methods(), ["notifications/tools/list_changed", "notifications/message"]);
  act(() => void fireEvent.click(screen.getByTestId("notifications-kind-logs")));
  assert.equal(screen.getByTestId("notifications-kind-logs").getAttribute("aria-pressed"), "true");
  assert.deepEqual(methods(), ["notifications/message"]);
  act(() => void fireEvent.click(screen.getByTestId("notifications-kind-logs")));
  act(() => void fireEvent.change(screen.getByTestId("notifications-filter"), { target: { value: "list_changed" } }));
  assert.deepEqual(methods(), ["notifications/tools/list_changed"]);
  act(() => void fireEvent.change(screen.getByTestId("notifications-filter"), { target: { value: "nothing like it" } }));
  assert.deepEqual(methods(), []);
  assert.match(screen.getByTestId("notifications-pane").textContent ?? "", /No notification matches the filter/);
  act(() => void fireEvent.click(screen.getByTestId("notifications-clear")));
  assert.equal(calls.cleared, 1);
  assert.equal(screen.getByTestId("notifications-listen").textContent, "Legacy server.");
});
