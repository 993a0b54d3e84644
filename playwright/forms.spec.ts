import { expect, test } from "./test";

import { editorText, openPlayground, send, setRequest } from "./helpers";

/** The editor's text as JSON (the visible lines, joined; the demo requests are short enough to be all visible). */
async function editorJson(page: Parameters<typeof editorText>[0]): Promise<Record<string, unknown>> {
  return JSON.parse(await editorText(page)) as Record<string, unknown>;
}

function args(message: Record<string, unknown>): unknown {
  return (message.params as { arguments?: unknown } | undefined)?.arguments;
}

test.describe("the arguments form, two-way with the JSON editor", () => {
  test("assign_issue: $defs and oneOf round-trip between the form and the JSON", async ({ page }) => {
    await openPlayground(page, "builtin:demo", "assign_issue");
    const form = page.getByTestId("arguments-form");
    await expect(form).toContainText("Arguments of assign_issue");

    // Form → JSON: the integer and the oneOf branch (a $ref into $defs) are written into params.arguments.
    await form.getByLabel(/issue_id/).fill("3");
    await expect.poll(async () => args(await editorJson(page))).toMatchObject({ issue_id: 3 });
    const chooser = form.locator('select[data-choice="assignee"]');
    await chooser.selectOption({ label: "Team" });
    await form.getByTestId("choice-branch").getByRole("combobox").selectOption("platform");
    await expect.poll(async () => args(await editorJson(page))).toEqual({ issue_id: 3, assignee: { team: "platform" } });

    // JSON → form: the other branch typed in the editor picks "User" and fills its field.
    await setRequest(
      page,
      JSON.stringify({
        jsonrpc: "2.0",
        id: 7,
        method: "tools/call",
        params: { name: "assign_issue", arguments: { issue_id: 4, assignee: { user_id: "u_ada" } } },
      }),
    );
    await expect(form.getByLabel(/issue_id/)).toHaveValue("4");
    await expect(chooser.locator("option:checked")).toHaveText("User");
    await expect(form.getByTestId("choice-branch").getByRole("textbox")).toHaveValue("u_ada");

    // An invalid value typed in the form is flagged on its field, with the same rule the editor uses.
    await form.getByTestId("choice-branch").getByRole("textbox").fill("Ada Lovelace");
    await expect(form.getByTestId("field-error").first()).toContainText(/pattern|match/i);

    // The rest of the message (id, method) is untouched by form edits, and a valid form sends.
    await form.getByTestId("choice-branch").getByRole("textbox").fill("u_grace");
    const sent = await editorJson(page);
    expect(sent.id).toBe(7);
    expect(args(sent)).toEqual({ issue_id: 4, assignee: { user_id: "u_grace" } });
    await send(page);
    await expect(page.getByTestId("rendered-result")).toBeVisible();
  });

  test("a value the form cannot express stays as JSON, with a note, and is not rewritten", async ({ page }) => {
    await openPlayground(page, "builtin:demo", "assign_issue");
    await setRequest(
      page,
      JSON.stringify({
        jsonrpc: "2.0",
        id: 9,
        method: "tools/call",
        params: { name: "assign_issue", arguments: { issue_id: 2, assignee: { squad: "night" } } },
      }),
    );
    const form = page.getByTestId("arguments-form");
    await expect(form.getByTestId("json-fallback-note")).toContainText("fits none of the options");
    // Editing another field keeps the odd value exactly.
    await form.getByLabel(/issue_id/).fill("5");
    await expect.poll(async () => args(await editorJson(page))).toEqual({ issue_id: 5, assignee: { squad: "night" } });
  });

  test("other methods have no form; an unknown tool says why", async ({ page }) => {
    await openPlayground(page, "builtin:demo", "search_issues");
    await setRequest(page, JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }));
    await expect(page.getByTestId("arguments-form")).toHaveCount(0);
    await setRequest(page, JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "nope", arguments: {} } }));
    await expect(page.getByTestId("arguments-form-note")).toContainText("did not list a tool named “nope”");
  });

  test("the form collapses, and stays collapsed across a reload", async ({ page }) => {
    await openPlayground(page, "builtin:demo", "search_issues");
    const toggle = page.getByTestId("arguments-form-toggle");
    await expect(toggle).toHaveAttribute("aria-expanded", "true");
    await toggle.focus();
    await page.keyboard.press("Enter");
    await expect(toggle).toHaveAttribute("aria-expanded", "false");
    await expect(page.getByTestId("schema-form")).toHaveCount(0);
    await page.reload();
    await expect(page.getByTestId("arguments-form-toggle")).toHaveAttribute("aria-expanded", "false");
  });
});
