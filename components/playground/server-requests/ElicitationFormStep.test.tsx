import { afterEach, test } from "node:test";
import assert from "node:assert/strict";
import { act, cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { ElicitationFormStep } from "./ElicitationFormStep";

afterEach(cleanup);

const SCHEMA = {
  type: "object",
  properties: {
    name: { type: "string", title: "Name", minLength: 2 },
    agree: { type: "boolean", title: "I accept the terms" },
    confirm: { type: "boolean", title: "Delete all closed issues", default: false },
    size: {
      type: "string",
      title: "Size",
      oneOf: [
        { const: "s", title: "Small" },
        { const: "l", title: "Large" },
      ],
      default: "l",
    },
    tags: { type: "array", title: "Tags", items: { type: "string", enum: ["x", "y", "z"] }, default: ["x"] },
    age: { type: "integer", title: "Age" },
    when: { type: "string", format: "date-time", title: "When" },
  },
  required: ["name", "agree", "confirm"],
};

function renderStep(schema: unknown = SCHEMA) {
  const answers: Record<string, unknown>[] = [];
  render(<ElicitationFormStep message="Tell us" requestedSchema={schema} onAnswer={(a) => answers.push(a)} />);
  return answers;
}
const type = (el: HTMLElement, text: string) => act(() => void fireEvent.change(el, { target: { value: text } }));
const submit = () => act(() => void fireEvent.click(screen.getByTestId("elicit-submit")));

test("defaults are filled in (SEP-1034); errors show once a field is edited or Submit is pressed", () => {
  renderStep();
  assert.equal(screen.getByLabelText<HTMLSelectElement>(/^Size/).selectedOptions[0].text, "Large");
  assert.equal(screen.getByRole<HTMLInputElement>("checkbox", { name: "x" }).checked, true);
  assert.equal(screen.getByRole<HTMLInputElement>("checkbox", { name: /Delete all closed issues/ }).checked, false);
  assert.equal(screen.queryAllByTestId("field-error").length, 0, "nothing flagged before the user did anything");
  type(screen.getByLabelText(/^Name/), "A");
  assert.match(screen.getByTestId("field-error").textContent ?? "", /Name must be at least 2 characters/);
});

test("a required boolean must be answered: Submit waits until Yes or No is chosen", () => {
  const answers = renderStep();
  type(screen.getByLabelText(/^Name/), "Ada");
  submit();
  assert.deepEqual(answers, [], "not accepted while the required yes/no is unanswered");
  const group = screen.getByRole("radiogroup", { name: /I accept the terms/ });
  assert.match(document.getElementById(group.getAttribute("aria-describedby")!.split(" ").at(-1)!)?.textContent ?? "", /required/);
  assert.ok(screen.getByTestId("elicit-blocked"));
  assert.equal(document.activeElement?.getAttribute("data-field"), "agree", "the first field with a problem takes the focus");
  act(() => void fireEvent.click(within(group).getByRole("radio", { name: "No" })));
  submit();
  assert.deepEqual(answers, [{ action: "accept", content: { confirm: false, size: "l", tags: ["x"], name: "Ada", agree: false } }]);
});

test("typed values: numbers, date-time in UTC, multi-select in option order; half-typed numbers hold Submit", () => {
  const answers = renderStep();
  type(screen.getByLabelText(/^Name/), "Ada");
  act(() => void fireEvent.click(screen.getByRole("radio", { name: "Yes" })));
  act(() => void fireEvent.click(screen.getByRole("checkbox", { name: /Delete all closed issues/ })));
  act(() => void fireEvent.click(screen.getByRole("checkbox", { name: "z" })));
  act(() => void fireEvent.click(screen.getByRole("checkbox", { name: "y" })));
  type(screen.getByLabelText(/^When/), "2026-01-02T03:04");
  type(screen.getByLabelText(/^Age/), "4.");
  submit();
  assert.deepEqual(answers, [], "4. is not a number yet");
  type(screen.getByLabelText(/^Age/), "41");
  submit();
  assert.deepEqual(answers[0], {
    action: "accept",
    content: { confirm: true, size: "l", tags: ["x", "y", "z"], name: "Ada", agree: true, when: "2026-01-02T03:04:00Z", age: 41 },
  });
});

test("restricted-subset warnings are listed; Decline and Cancel answer without content", () => {
  const answers = renderStep({ type: "object", properties: { where: { type: "object", properties: { city: { type: "string" } } } } });
  assert.match(document.body.textContent ?? "", /where: nested objects are not allowed in an elicitation form/);
  act(() => void fireEvent.click(screen.getByTestId("elicit-decline")));
  act(() => void fireEvent.click(screen.getByTestId("elicit-cancel")));
  assert.deepEqual(answers, [{ action: "decline" }, { action: "cancel" }]);
});
