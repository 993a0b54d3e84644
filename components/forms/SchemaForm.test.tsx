import { afterEach, test } from "node:test";
import assert from "node:assert/strict";
import { useState } from "react";
import { act, cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { ASSIGN_SCHEMA } from "@/lib/forms/testing/assign-schema";
import { SchemaForm } from "./SchemaForm";

afterEach(cleanup);

/** A form with its value held by the test, as the playground holds it in the editor text. */
function renderForm(schema: unknown, initial: unknown) {
  const seen: Record<string, unknown>[] = [];
  let setOutside: (v: unknown) => void = () => {};
  function Host() {
    const [value, setValue] = useState<unknown>(initial);
    setOutside = setValue;
    return (
      <SchemaForm
        schema={schema}
        value={value}
        idPrefix="t"
        onChange={(next) => {
          seen.push(next);
          setValue(next);
        }}
      />
    );
  }
  render(<Host />);
  return { seen, last: () => seen.at(-1), setOutside: (v: unknown) => act(() => setOutside(v)) };
}

const type = (el: HTMLElement, text: string) => act(() => void fireEvent.change(el, { target: { value: text } }));
const click = (el: HTMLElement) => act(() => void fireEvent.click(el));
const errorsOf = (el: HTMLElement) =>
  (el.getAttribute("aria-describedby") ?? "")
    .split(" ")
    .filter(Boolean)
    .map((id) => document.getElementById(id)?.textContent ?? "")
    .join(" | ");

test("typing updates onChange with the whole value; other keys stay as they were; emptied optional fields are left out", () => {
  const form = renderForm(ASSIGN_SCHEMA, { issue_id: 3, assignee: { team: "support" } });
  type(screen.getByLabelText(/^title/), "Login broken");
  assert.deepEqual(form.last(), { issue_id: 3, assignee: { team: "support" }, title: "Login broken" });
  type(screen.getByLabelText(/^issue_id/), "12");
  assert.deepEqual(form.last(), { issue_id: 12, assignee: { team: "support" }, title: "Login broken" });
  assert.deepEqual(Object.keys(form.last()!), ["issue_id", "assignee", "title"], "key order kept");
  act(() => void fireEvent.change(screen.getByLabelText(/^priority/), { target: { value: "2" } }));
  assert.equal(form.last()!.priority, 3, "enum of numbers: the value, not its text");
  act(() => void fireEvent.change(screen.getByLabelText(/^priority/), { target: { value: "" } }));
  assert.equal("priority" in form.last()!, false, "(not set) leaves it out");
  // A required field emptied is an error, not a silent "".
  type(screen.getByLabelText(/^title/), "");
  assert.equal("title" in form.last()!, false);
  assert.match(errorsOf(screen.getByLabelText(/^title/)), /title is required/);
  assert.equal(screen.getByLabelText(/^title/).getAttribute("aria-invalid"), "true");
});

test("a change from outside shows in the field without taking the focus; half-typed input stays with its error", () => {
  const form = renderForm(ASSIGN_SCHEMA, { title: "One" });
  const title = screen.getByLabelText(/^title/) as HTMLInputElement;
  act(() => title.focus());
  form.setOutside({ title: "One two", issue_id: 5 });
  assert.equal(title.value, "One two");
  assert.equal(document.activeElement, title, "still focused");
  assert.equal(screen.getByLabelText<HTMLInputElement>(/^issue_id/).value, "5");

  const id = screen.getByLabelText(/^issue_id/) as HTMLInputElement;
  act(() => id.focus());
  type(id, "5.");
  assert.equal(id.value, "5.", "kept as typed");
  assert.match(errorsOf(id), /must be a whole number/);
  assert.equal(form.last(), undefined, "nothing emitted for text that is not a value");
  type(id, "10.0");
  assert.equal(form.last()!.issue_id, 10);
  assert.equal(id.value, "10.0", "text that already means the value is not rewritten while typing");
  type(id, "");
  assert.equal(id.value, "");
  assert.deepEqual(form.last(), { title: "One two" });
  // The outside value changing the same field replaces the text.
  form.setOutside({ title: "One two", issue_id: 8 });
  assert.equal(id.value, "8");
  assert.equal(document.activeElement, id);
});

test("arrays: add, edit, move up/down and remove by buttons with accessible names; maxItems", () => {
  const form = renderForm(ASSIGN_SCHEMA, { labels: ["a", "b"] });
  const group = screen.getByRole("group", { name: /^labels/ });
  click(within(group).getByRole("button", { name: "Move item 1 of labels down" }));
  assert.deepEqual(form.last()!.labels, ["b", "a"]);
  click(within(group).getByRole("button", { name: "Move item 2 of labels up" }));
  assert.deepEqual(form.last()!.labels, ["a", "b"]);
  assert.equal(within(group).getByRole<HTMLButtonElement>("button", { name: "Move item 1 of labels up" }).disabled, true);
  click(within(group).getByRole("button", { name: "Add item to labels" }));
  assert.deepEqual(form.last()!.labels, ["a", "b", ""]);
  type(screen.getByLabelText("Item 3 of labels"), "c");
  assert.deepEqual(form.last()!.labels, ["a", "b", "c"]);
  assert.equal(within(group).getByRole<HTMLButtonElement>("button", { name: "Add item to labels" }).disabled, true, "maxItems 3");
  click(within(group).getByRole("button", { name: "Remove item 1 of labels" }));
  assert.deepEqual(form.last()!.labels, ["b", "c"]);
  assert.equal(screen.getByLabelText<HTMLInputElement>("Item 1 of labels").value, "b");
  click(within(group).getByRole("button", { name: "Remove item 1 of labels" }));
  click(within(group).getByRole("button", { name: "Remove item 1 of labels" }));
  assert.equal("labels" in form.last()!, false, "an emptied optional list is left out");
});

test("oneOf: the chooser shows the branch the value belongs to; choosing another starts it empty", () => {
  const form = renderForm(ASSIGN_SCHEMA, { assignee: { team: "platform" } });
  const chooser = screen.getByLabelText(/^assignee/) as HTMLSelectElement;
  assert.equal(chooser.tagName, "SELECT");
  assert.deepEqual(
    [...chooser.options].map((o) => o.text),
    ["Choose…", "User", "Team"],
  );
  assert.equal(chooser.options[chooser.selectedIndex].text, "Team");
  assert.equal(screen.getByLabelText<HTMLSelectElement>(/^team/).value, "1");
  act(() => void fireEvent.change(chooser, { target: { value: "0" } }));
  assert.deepEqual(form.last()!.assignee, {});
  const user = screen.getByLabelText(/^user_id/);
  assert.match(errorsOf(user), /user_id is required/);
  type(user, "Ada");
  assert.match(errorsOf(screen.getByLabelText(/^user_id/)), /must match the pattern/);
  assert.doesNotMatch(document.body.textContent ?? "", /team is required|matches none/, "no noise from the other branch");
  type(screen.getByLabelText(/^user_id/), "u_ada");
  assert.deepEqual(form.last()!.assignee, { user_id: "u_ada" });
  // The JSON side picks the branch again.
  form.setOutside({ assignee: { team: "support" } });
  assert.equal(chooser.options[chooser.selectedIndex].text, "Team");
  // A value that fits no branch: JSON with a note, kept until the user chooses.
  form.setOutside({ assignee: { user_id: "u_a", team: "support" } });
  assert.equal(chooser.value, "");
  assert.match(screen.getByTestId("json-fallback-note").textContent ?? "", /fits none of the options/);
  assert.deepEqual(
    screen
      .getAllByTestId("field-error")
      .map((e) => e.textContent)
      .filter((t) => t?.startsWith("assignee")),
    ["assignee matches none of the allowed shapes (oneOf)"],
    "one message, not every branch's complaints",
  );
  act(() => void fireEvent.change(chooser, { target: { value: "1" } }));
  assert.deepEqual(form.last()!.assignee, {}, "choosing starts the branch over");
});

test("an optional choice can be unset again", () => {
  const schema = { type: "object", properties: { v: { anyOf: [{ type: "string" }, { type: "integer" }] } } };
  const form = renderForm(schema, { v: 3 });
  const chooser = screen.getByRole("combobox", { name: /^v/ }) as HTMLSelectElement;
  assert.equal(chooser.options[chooser.selectedIndex].text, "integer");
  act(() => void fireEvent.change(chooser, { target: { value: "" } }));
  assert.deepEqual(form.last(), {});
  assert.equal(chooser.value, "");
  act(() => void fireEvent.change(chooser, { target: { value: "0" } }));
  type(screen.getByLabelText(/^v \(string\)/), "x");
  assert.deepEqual(form.last(), { v: "x" });
});

test("what the form cannot show is JSON with a note, kept byte for byte through edits elsewhere", () => {
  const unknown = { nested: [1, { deep: "x" }], "~odd/key": null };
  const rule = { anyOf: [1, 2] };
  const schema = {
    type: "object",
    properties: { title: { type: "string" }, count: { type: "integer" }, rule: { allOf: [{ type: "object" }] } },
  };
  const initial = { extra: unknown, count: "seven", title: "a", rule };
  const form = renderForm(schema, initial);
  const notes = screen.getAllByTestId("json-fallback-note").map((n) => n.textContent);
  assert.ok(
    notes.some((n) => /"seven" is not a whole number/.test(n ?? "")),
    notes.join("\n"),
  );
  assert.ok(notes.some((n) => /cannot express "allOf"/.test(n ?? "")));
  assert.ok(notes.some((n) => /"extra" is not described by the schema; it is kept as it is/.test(n ?? "")));
  assert.ok(screen.getByLabelText(/^extra/), "unknown key shown");
  type(screen.getByLabelText(/^title/), "ab");
  const next = form.last()!;
  assert.deepEqual(Object.keys(next), ["extra", "count", "title", "rule"]);
  assert.equal(next.extra, unknown, "the very same value");
  assert.equal(next.rule, rule);
  assert.equal(next.count, "seven");
  assert.equal(JSON.stringify(next), JSON.stringify({ ...initial, title: "ab" }));
  // Editing the JSON field replaces that part only; broken JSON waits with its error.
  const count = screen.getByLabelText(/^count/);
  type(count, "7");
  assert.equal(form.last()!.count, 7);
  type(screen.getByLabelText(/^extra/), "{ broken");
  assert.match(errorsOf(screen.getByLabelText(/^extra/)), /not valid JSON yet/);
  assert.equal(form.last()!.extra, unknown);
});

test("a required boolean without a default is answered Yes or No; an optional one is a checkbox that can be left out", () => {
  const schema = {
    type: "object",
    properties: { agree: { type: "boolean", title: "I agree" }, news: { type: "boolean" } },
    required: ["agree"],
  };
  const form = renderForm(schema, {});
  const group = screen.getByRole("radiogroup", { name: /I agree/ });
  const [yes, no] = within(group).getAllByRole<HTMLInputElement>("radio");
  assert.deepEqual([yes.checked, no.checked], [false, false], "not answered yet");
  assert.match(errorsOf(group), /I agree is required/);
  click(no);
  assert.deepEqual(form.last(), { agree: false });
  assert.doesNotMatch(errorsOf(group), /required/);
  const news = screen.getByRole<HTMLInputElement>("checkbox", { name: /news/ });
  // Optional with no default: left out, true and false look different (a mixed box says "not set").
  assert.equal(news.indeterminate, true);
  assert.ok(screen.getByTestId("boolean-not-set"));
  click(news);
  assert.deepEqual(form.last(), { agree: false, news: true });
  click(news);
  assert.deepEqual(form.last(), { agree: false, news: false }, "unticked is false, sent as false");
  assert.equal(news.indeterminate, false);
  click(screen.getByRole("button", { name: "Leave out news" }));
  assert.deepEqual(form.last(), { agree: false }, "Leave out takes the argument out again");
  assert.equal(news.indeterminate, true);
});

test("defaults: shown as a hint, applied per field or all at once on request, never silently", () => {
  const schema = { type: "object", properties: { limit: { type: "integer", default: 10 }, status: { type: "string", default: "open" } } };
  const form = renderForm(schema, {});
  assert.equal(form.last(), undefined, "nothing applied on its own");
  assert.match(errorsOf(screen.getByLabelText(/^limit/)), /default: 10/);
  click(screen.getByRole("button", { name: "Use the default of limit" }));
  assert.deepEqual(form.last(), { limit: 10 });
  assert.equal(screen.getByLabelText<HTMLInputElement>(/^limit/).value, "10");
  click(screen.getByTestId("fill-defaults"));
  assert.deepEqual(form.last(), { limit: 10, status: "open" });
  assert.equal(screen.queryByTestId("fill-defaults"), null, "nothing left to fill");
});

test("objects: additionalProperties as a key/value editor; nullable values; disabled", () => {
  const schema = {
    type: "object",
    properties: { env: { type: "object", additionalProperties: { type: "string" } }, note: { type: ["string", "null"] } },
    required: ["env"],
  };
  const form = renderForm(schema, { env: { A: "1" }, note: null });
  type(screen.getByLabelText("New property of env"), "B");
  click(screen.getByRole("button", { name: "Add property" }));
  assert.deepEqual(form.last()!.env, { A: "1", B: "" });
  type(screen.getByLabelText(/^B/), "2");
  assert.deepEqual(form.last()!.env, { A: "1", B: "2" });
  type(screen.getByLabelText("New property of env"), "A");
  click(screen.getByRole("button", { name: "Add property" }));
  assert.match(document.body.textContent ?? "", /"A" is already there/);
  click(screen.getByRole("button", { name: "Give note a value instead of null" }));
  assert.equal("note" in form.last()!, false);
  type(screen.getByLabelText(/^note/), "hi");
  click(screen.getByRole("button", { name: "Set note to null" }));
  assert.equal(form.last()!.note, null);
  cleanup();
  render(<SchemaForm schema={schema} value={{ env: {} }} onChange={() => assert.fail("disabled")} disabled />);
  assert.equal(screen.getByRole<HTMLButtonElement>("button", { name: "Add property" }).disabled, true);
});

test("ids are unique per form: two forms on a page", () => {
  render(
    <>
      <SchemaForm schema={ASSIGN_SCHEMA} value={{}} onChange={() => {}} idPrefix="a" />
      <SchemaForm schema={ASSIGN_SCHEMA} value={{}} onChange={() => {}} idPrefix="b" />
    </>,
  );
  const ids = [...document.querySelectorAll("[id]")].map((e) => e.id);
  assert.equal(new Set(ids).size, ids.length);
  assert.equal(screen.getAllByLabelText(/^title/).length, 2);
});
