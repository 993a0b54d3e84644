import type { Page } from "@playwright/test";
import { expect, test } from "./test";
import { expectEditor, mrtrDialog, openPlayground, send, setRequest, shootSizes } from "./helpers";
import { startEverythingServer } from "./fixtures/everything-server";
import { spawnTasksServer, type TasksServerProcess } from "../lib/upstream/testing/tasks-server-process";

/**
 * Long-running tools as tasks, in the playground, on both wires: the 2026-07-28 tasks extension against our SDK v2
 * fixture (tasks created unasked, input mid-task, cancel; its log shows the poll interval honoured) and 2025-11-25's
 * experimental tasks against the published server-everything (simulate-research-query, with and without its
 * elicitation).
 */

const POLL_MS = 400;
let tasks: TasksServerProcess;
let everything: { url: string; stop: () => void };

test.beforeAll(async () => {
  [tasks, everything] = await Promise.all([
    spawnTasksServer(["--poll-interval-ms", String(POLL_MS), "--step-ms", "500"]),
    startEverythingServer("streamableHttp"),
  ]);
});

test.afterAll(() => {
  tasks?.stop();
  everything?.stop();
});

test.describe.configure({ timeout: 120_000 });

const taskCard = (page: Page) => page.getByTestId("task-card");

/** The playground for `server`, not asking before each call (the fixture's tools declare no annotations: "destructive"). */
async function open(page: Page, server: string, tool?: string) {
  await openPlayground(page, server, tool);
  await page.getByTestId("pref-confirm-destructive").uncheck();
}

function call(name: string, args: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args, ...extra } });
}

test.describe("2026-07-28: the tasks extension", () => {
  test("a call the server turns into a task: status as it runs, the result at the end, polls no faster than asked", async ({ page }) => {
    await open(page, tasks.url);
    await setRequest(page, call("build_report", { topic: "latency", steps: 4 }));
    await send(page);
    await expect(taskCard(page)).toBeVisible();
    await expect(taskCard(page).getByTestId("task-status")).toHaveText("working");
    await expect(taskCard(page).getByTestId("task-status-message")).not.toBeEmpty();
    await expect(taskCard(page).getByTestId("task-poll-interval")).toContainText(`${POLL_MS} ms`);
    await shootSizes(page, "test-results/tasks", "task-running", { show: taskCard(page) });
    await expect(taskCard(page)).toHaveAttribute("data-status", "completed", { timeout: 30_000 });
    await expect(page.getByTestId("exchange")).toHaveAttribute("data-state", "done");
    await expect(page.getByTestId("rendered-result")).toContainText("latency");
    await expect(page.getByTestId("mrtr-round").first()).toContainText("task created");
    await expect(page.getByTestId("mrtr-round").last()).toContainText("poll: completed");

    const taskId = (await taskCard(page).getByTestId("task-id").innerText()).trim();
    const polls = (await tasks.log(taskId)).filter((e) => e.method === "tasks/get");
    expect(polls.length, "polled more than once").toBeGreaterThan(1);
    for (const p of polls)
      expect(p.sinceLastPollMs ?? 0, `a poll ${p.sinceLastPollMs} ms after the last`).toBeGreaterThanOrEqual(POLL_MS - 10);
    for (const p of polls) expect(p.mcpName, "Mcp-Name names the task").toBe(taskId);

    // The Tasks panel lists it, and still does after a reload (sessionStorage); nothing polls it meanwhile.
    const panel = page.getByTestId("tasks-panel");
    await panel.locator("summary").click();
    await expect(panel.getByTestId("tab-task")).toHaveAttribute("data-status", "completed");
    await expect(panel.getByTestId("tab-task")).toContainText(taskId);
    const before = (await tasks.log(taskId)).length;
    await page.reload();
    await expectEditor(page);
    await page.getByTestId("tasks-panel").locator("summary").click();
    await expect(page.getByTestId("tab-task")).toContainText(taskId);
    await shootSizes(page, "test-results/tasks", "tasks-panel", { show: page.getByTestId("tasks-panel") });
    expect((await tasks.log(taskId)).length, "no poll after the task ended").toBe(before);
  });

  test("input mid-task: the dialog asks, tasks/update answers, the task completes", async ({ page }) => {
    await open(page, tasks.url);
    await setRequest(page, call("deploy_with_approval", { service: "api" }));
    await send(page);
    const dialog = mrtrDialog(page);
    await expect(dialog).toBeVisible({ timeout: 20_000 });
    await expect(taskCard(page)).toHaveAttribute("data-status", "input_required");
    await shootSizes(page, "test-results/tasks", "task-input", { show: dialog });
    await dialog.getByRole("radio", { name: "Yes" }).check();
    await dialog.getByTestId("elicit-submit").click();
    await expect(dialog).toBeHidden();
    await expect(taskCard(page)).toHaveAttribute("data-status", "completed", { timeout: 30_000 });
    await expect(page.getByTestId("mrtr-round").filter({ hasText: "answers sent" })).toHaveCount(1);
    const taskId = (await taskCard(page).getByTestId("task-id").innerText()).trim();
    const updates = (await tasks.log(taskId)).filter((e) => e.method === "tasks/update");
    expect(updates.map((u) => u.accepted?.length)).toEqual([1]);
  });

  test("Cancel: tasks/cancel goes out and the task ends cancelled", async ({ page }) => {
    await open(page, tasks.url);
    await setRequest(page, call("build_report", { topic: "slow", steps: 6 }));
    await send(page);
    await expect(taskCard(page)).toHaveAttribute("data-status", "working");
    await page.getByTestId("cancel").click();
    await expect(page.getByTestId("exchange")).toHaveAttribute("data-state", "cancelled", { timeout: 20_000 });
    await expect(page.getByTestId("exchange-note")).toContainText("Cancel sent");
    const taskId = (await taskCard(page).getByTestId("task-id").innerText()).trim();
    expect((await tasks.log(taskId)).some((e) => e.method === "tasks/cancel")).toBe(true);
    await expect(taskCard(page)).toHaveAttribute("data-status", "cancelled");
  });

  test("with tasks not declared the same call answers at once, without a task", async ({ page }) => {
    await open(page, tasks.url);
    await page.getByTestId("pref-tasks").uncheck();
    await setRequest(page, call("build_report", { topic: "plain", steps: 1 }));
    await send(page);
    await expect(page.getByTestId("exchange")).toHaveAttribute("data-state", "done", { timeout: 20_000 });
    await expect(taskCard(page)).toHaveCount(0);
    await expect(page.getByTestId("rendered-result")).toContainText("plain");
    await page.getByTestId("pref-tasks").check();
  });
});

test.describe("2025-11-25: server-everything's experimental tasks", () => {
  test("simulate-research-query: the template asks for a task; polled to completed, the report from tasks/result", async ({ page }) => {
    await open(page, everything.url, "simulate-research-query");
    await expect(page.getByTestId("request-editor")).toContainText('"task"');
    await setRequest(page, call("simulate-research-query", { topic: "tides" }, { task: { ttl: 60000 } }));
    await send(page);
    await expect(taskCard(page)).toBeVisible();
    await expect(taskCard(page)).toContainText("experimental tasks (2025-11-25)");
    await expect(page.getByTestId("exchange")).toHaveAttribute("data-state", "done", { timeout: 40_000 });
    await expect(page.getByTestId("rendered-result")).toContainText("Research Report: tides");
    await expect(page.getByTestId("mrtr-round").last()).toContainText("task result");
    const taskId = (await taskCard(page).getByTestId("task-id").innerText()).trim();

    // tasks/list: what the server itself holds, this task among them.
    const panel = page.getByTestId("tasks-panel");
    await panel.locator("summary").click();
    await panel.getByTestId("tasks-list").click();
    await expect(panel.getByTestId("server-tasks")).toContainText(taskId);
  });

  test("with its elicitation: the question arrives on tasks/result and is answered in the dialog", async ({ page }) => {
    await open(page, everything.url, "simulate-research-query");
    await setRequest(page, call("simulate-research-query", { topic: "python", ambiguous: true }, { task: { ttl: 60000 } }));
    await send(page);
    const dialog = page.getByTestId("server-request-dialog");
    await expect(dialog).toBeVisible({ timeout: 30_000 });
    await expect(taskCard(page)).toHaveAttribute("data-status", "input_required");
    await shootSizes(page, "test-results/tasks", "legacy-task-input", { show: dialog });
    const choice = dialog.locator("select");
    if (await choice.count()) await choice.first().selectOption({ index: 1 });
    else await dialog.getByRole("radio").first().check();
    await dialog.getByTestId("elicit-submit").click();
    await expect(page.getByTestId("exchange")).toHaveAttribute("data-state", "done", { timeout: 40_000 });
    await expect(page.getByTestId("rendered-result")).toContainText("Research Report");
  });
});
