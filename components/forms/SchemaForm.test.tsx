import { afterEach, test } from "node:test";
import assert from "node:assert/strict";
import { useState } from "react";
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
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

test("typing updates onChange with the whole value; other keys stay as they were", () => {
  const form = renderForm(ASSIGN_SCHEMA, { issue_id: 3, assignee: { team: "support" } });
  type(screen.getByLabelText(/^title/), "Login broken");
  assert.deepEqual(form.last(), { issue_id: 3, assignee: { team: "support" }, title: "Login broken" });
  type(screen.getByLabelText(/^issue_id/), "12");
  assert.deepEqual(form.last(), { issue_id: 12, assignee: { team: "support" }, title: "Login broken" });
});
