import { expect, test } from "./test";

import { ensureClosedIssue, mrtrDialog, openPlayground, send } from "./helpers";

test.describe("MRTR in the playground", () => {
  // Two page loads with Monaco each, on a shared (busy) machine.
  test.describe.configure({ timeout: 120_000 });

  test("purge_closed_issues: confirm the destructive call, answer the form, see both rounds grouped and the result", async ({
    page,
    request,
  }) => {
    await ensureClosedIssue(request);
    await openPlayground(page, "builtin:demo", "purge_closed_issues");
    await page.getByTestId("send").click();

    // Destructive by its annotations: the playground asks first.
    const confirm = page.getByTestId("confirm-destructive");
    await expect(confirm).toBeVisible();
    await confirm.getByTestId("confirm-send").click();

    // Round 1 answers input_required: the dialog shows the form generated from requestedSchema.
    const dialog = mrtrDialog(page);
    await expect(dialog).toBeVisible();
    await expect(dialog.getByTestId("mrtr-server")).toContainText("Toolscope demo");
    await expect(dialog.getByTestId("elicitation-message")).toContainText("Permanently delete");
    const box = dialog.getByLabel("Delete all closed issues");
    await expect(box).not.toBeChecked();
    await expect(dialog.getByText("Reason (optional)")).toBeVisible();

    // Live validation: over-long reason is flagged as typed, then fixed.
    const reason = dialog.getByLabel("Reason (optional)");
    await reason.fill("x".repeat(201));
    await expect(dialog.getByTestId("field-error")).toContainText("at most 200");
    await reason.fill("spring cleaning");
    await expect(dialog.getByTestId("field-error")).toHaveCount(0);
    await box.check();
    await dialog.getByTestId("elicit-submit").click();

    // Round 2 retried automatically with inputResponses + requestState: grouped with round 1.
    await expect(dialog).toBeHidden();
    const rounds = page.getByTestId("mrtr-round");
    await expect(rounds).toHaveCount(2);
    await expect(rounds.nth(0)).toContainText("input_required (confirm)");
    await expect(rounds.nth(1)).toContainText("Round 2");
    await expect(rounds.nth(1)).toContainText("confirm: accept");
    await expect(page.getByTestId("rendered-result")).toContainText(/Deleted \d+ closed issues?\. Reason: spring cleaning/);

    // The retry carried the answers and the state, under a new id.
    await page.getByRole("tab", { name: /HTTP/ }).click();
    const body = page.getByTestId("http-exchange").locator("pre").first();
    await expect(body).toContainText('"inputResponses"');
    await expect(body).toContainText('"requestState"');
    await expect(body).toContainText('"id": 2');

    // Round 1 stays inspectable.
    await rounds.nth(0).click();
    await page.getByRole("tab", { name: "Rendered" }).click();
    await expect(page.getByTestId("input-required")).toBeVisible();
  });

  test("declining sends the decline action; nothing is deleted", async ({ page, request }) => {
    await ensureClosedIssue(request);
    await openPlayground(page, "builtin:demo", "purge_closed_issues");
    await page.getByTestId("pref-confirm-destructive").uncheck();
    await send(page);
    const dialog = mrtrDialog(page);
    await expect(dialog).toBeVisible();
    await dialog.getByTestId("elicit-decline").click();
    await expect(page.getByTestId("mrtr-round")).toHaveCount(2);
    await expect(page.getByTestId("mrtr-round").nth(1)).toContainText("confirm: decline");
    await expect(page.getByTestId("rendered-result")).toContainText("Nothing was deleted: the user declined");
  });

  test("Escape cancels the elicitation (cancel action)", async ({ page, request }) => {
    await ensureClosedIssue(request);
    await openPlayground(page, "builtin:demo", "purge_closed_issues");
    await page.getByTestId("pref-confirm-destructive").uncheck();
    await send(page);
    await expect(mrtrDialog(page)).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(page.getByTestId("rendered-result")).toContainText("Nothing was deleted: the user cancelled");
  });
});
