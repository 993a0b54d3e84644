import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "@playwright/test";
import { expect, test } from "./test";
import { mrtrDialog, openPlayground, send, setRequest, shootSizes } from "./helpers";
import { startEverythingServer } from "./fixtures/everything-server";
import { createDemoServerHandler } from "../lib/demo/server";
import { serveFetchHandler, type ServedHandler } from "../lib/demo/testing/node-http-adapter";
import { exampleCollection } from "../lib/collections/testing/example-collection";
import { purgeCollection } from "../lib/collections/testing/purge-collection";
import { writeCollection } from "../lib/collections/write-collection";
import { decodeCollectionShare } from "../lib/collections/share-collection";
import type { Collection } from "../lib/collections/format";

/**
 * Tool tests in the playground (issue 32): docs/collections.md's example — create an issue, read it back by the
 * captured id, assign it, check the update — plus a destructive delete, run in Chromium through the Tests panel and by
 * `toolscope test` against the same demo server over HTTP, with the same results; then against a server that changed a
 * field, where both name the failed expectation. Writing expectations ("Expect this", a warning for a field the
 * output schema cannot have), MRTR from prepared answers and from the person, export/import byte for byte, and a link
 * with no header value. Screenshots in test-results/collections/.
 */

const SHOTS = "test-results/collections";
const SECRET = "Bearer sk-live-collection-secret-4242";

let demo: ServedHandler;
let changed: ServedHandler;
let dir: string;

/** The demo, but its issues answer `squad` where they said `team`: a server that renamed a field. */
function renamedFieldServer() {
  const handler = createDemoServerHandler();
  return {
    async fetch(req: Request): Promise<Response> {
      const res = await handler.fetch(req);
      const type = res.headers.get("content-type") ?? "";
      if (!/json|event-stream/.test(type)) return res;
      const text = (await res.text()).replaceAll('\\"team\\"', '\\"squad\\"');
      const headers = new Headers(res.headers);
      headers.delete("content-length");
      return new Response(text, { status: res.status, headers });
    },
  };
}

test.beforeAll(async () => {
  [demo, changed] = await Promise.all([serveFetchHandler(createDemoServerHandler()), serveFetchHandler(renamedFieldServer())]);
  dir = mkdtempSync(join(tmpdir(), "toolscope-collections-e2e-"));
});
test.afterAll(async () => {
  await Promise.all([demo?.close(), changed?.close()]);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test.describe.configure({ timeout: 150_000 });

/** The example with a destructive last step (asked about once per run). */
function lifecycle(server: string): Collection {
  const c = exampleCollection();
  c.environment = { ...c.environment, server };
  c.calls.push({
    name: "delete it",
    request: { jsonrpc: "2.0", method: "tools/call", params: { name: "delete_issue", arguments: { issue_id: "{{id}}" } } },
    expect: [
      { kind: "is-error", value: false },
      { kind: "text-contains", text: '"deleted"' },
    ],
  });
  return c;
}

function writeFile(name: string, c: Collection): string {
  const file = join(dir, name);
  writeFileSync(file, writeCollection(c));
  return file;
}

function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ["bin/toolscope.mjs", ...args],
      { env: { ...process.env, NODE_OPTIONS: "" }, timeout: 90_000 },
      (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? -1) : 0, stdout, stderr }),
    );
  });
}

const panel = (page: Page) => page.getByTestId("collection-panel");
const calls = (page: Page) => panel(page).getByTestId("collection-call");

async function openTests(page: Page, server: string) {
  await openPlayground(page, server);
  await page.getByTestId("tests-button").click();
  await expect(panel(page)).toBeVisible();
}

async function importFile(page: Page, file: string) {
  await panel(page).getByTestId("collection-import-file").setInputFiles(file);
}

/** Run all, confirming the destructive tool once; the per-call statuses when it ends. */
async function runAll(page: Page): Promise<string[]> {
  await panel(page).getByTestId("collection-run-all").click();
  const confirm = page.getByTestId("confirm-destructive");
  await expect(confirm).toBeVisible();
  await expect(confirm).toContainText("delete_issue");
  await confirm.getByTestId("confirm-send").click();
  await expect(panel(page).getByTestId("collection-summary")).toBeVisible({ timeout: 60_000 });
  // Asked once for the whole run, not before each call.
  await expect(confirm).toBeHidden();
  return calls(page).evaluateAll((els) => els.map((el) => `${el.getAttribute("data-name")}: ${el.getAttribute("data-status")}`));
}

test("the lifecycle collection in Chromium and by toolscope test: the same results; the exchange one click away", async ({ page }) => {
  const file = writeFile("lifecycle.json", lifecycle(demo.url.toString()));
  await openTests(page, demo.url.toString());
  await importFile(page, file);
  await expect(calls(page)).toHaveCount(6);
  const inBrowser = await runAll(page);
  await expect(panel(page).getByTestId("collection-summary")).toContainText("6 calls: 6 passed, 0 failed, 0 errors, 0 skipped");

  const run = await cli(["test", file, "--format", "json", "-q"]);
  expect(run.code, run.stderr).toBe(0);
  const report = JSON.parse(run.stdout) as { calls: { name: string; status: string; expectations: { pass: boolean }[] }[] };
  expect(report.calls.map((c) => `${c.name}: ${c.status}`)).toEqual(inBrowser);
  expect(inBrowser.every((line) => line.endsWith(": passed"))).toBe(true);

  // The first call's exchange: the request as sent, the answer, and the HTTP rounds, one click from the list.
  const first = calls(page).first();
  await first.getByTestId("call-exchange").click();
  const exchange = first.getByTestId("run-exchange");
  await expect(exchange).toContainText('"create_issue"');
  await exchange.getByRole("tab", { name: "HTTP" }).click();
  await expect(exchange.getByTestId("http-exchange")).toContainText("POST");

  // The id captured by the first call reached the second as a number.
  await calls(page).nth(1).getByTestId("call-exchange").click();
  await expect(calls(page).nth(1).getByTestId("run-exchange")).toContainText(/"issue_id": \d+/);
});

test("a server that changed a field: the expectation is named in the playground and by the CLI", async ({ page }) => {
  const file = writeFile("changed.json", lifecycle(changed.url.toString()));
  await openTests(page, changed.url.toString());
  await importFile(page, file);
  await panel(page).getByTestId("collection-bail").uncheck();
  const inBrowser = await runAll(page);
  expect(inBrowser).toContain("check the update: failed");
  const failedCall = calls(page).filter({ has: page.locator('[data-testid="call-name"]', { hasText: /^check the update$/ }) });
  await expect(failedCall.getByTestId("call-failures")).toContainText(
    '/result/content/0/text/assignee/team equals "platform": nothing at /result/content/0/text/assignee/team: /result/content/0/text/assignee has squad',
  );
  await shootSizes(page, SHOTS, "run-with-failure", { show: panel(page) });

  const run = await cli(["test", file, "-q"]);
  expect(run.code).toBe(1);
  expect(run.stdout).toMatch(/FAIL check the update/);
  expect(run.stdout).toContain(
    '✗ /result/content/0/text/assignee/team equals "platform": nothing at /result/content/0/text/assignee/team: /result/content/0/text/assignee has squad',
  );
  const json = JSON.parse((await cli(["test", file, "--format", "json", "-q"])).stdout) as { calls: { name: string; status: string }[] };
  expect(json.calls.map((c) => `${c.name}: ${c.status}`)).toEqual(inBrowser);

  // Run failed: only the calls that did not pass run again (with the id the first run captured).
  // (No destructive tool among them: nothing to confirm.)
  await panel(page).getByTestId("collection-run-failed").click();
  await expect(panel(page).getByTestId("collection-summary")).toContainText(/^2 calls: 0 passed, 2 failed/);
});

test("writing expectations: Expect this from an answer, a warning for a field the output schema cannot have, by keyboard", async ({
  page,
}) => {
  await openPlayground(page, "builtin:demo");
  await setRequest(
    page,
    JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "search_issues", arguments: { query: "export" } } }),
  );
  await send(page);
  await expect(page.getByTestId("rendered-result")).toBeVisible();
  // The Tests button, then "Expect this", by keyboard.
  await page.getByTestId("tests-button").focus();
  await page.keyboard.press("Enter");
  await panel(page).getByTestId("collection-expect-this").focus();
  await page.keyboard.press("Enter");
  await expect(calls(page)).toHaveCount(1);
  await expect(panel(page).getByTestId("collection-status")).toContainText("expectations its last answer meets");
  const call = calls(page).first();
  await call.getByTestId("call-toggle").focus();
  await page.keyboard.press("Enter");
  const kinds = await call.getByTestId("expectation-kind").evaluateAll((els) => els.map((el) => (el as HTMLSelectElement).value));
  expect(kinds.slice(0, 3)).toEqual(["no-error", "is-error", "output-schema"]);

  // A field search_issues's outputSchema does not have: a warning as it is written.
  await call.getByTestId("expectation-add").click();
  const row = call.getByTestId("expectation-row").last();
  await row.getByTestId("expectation-kind").selectOption("present");
  const pointer = row.locator('[data-field="pointer"]');
  await pointer.fill("/result/structuredContent/totl");
  await expect(row.getByTestId("expectation-warning")).toContainText('has no property "totl"');
  await shootSizes(page, SHOTS, "writing-an-expectation", { show: row });
  await pointer.fill("result/total");
  await expect(row.getByTestId("expectation-field-error")).toContainText('a JSON pointer starts with "/"');
  await pointer.fill("/result/structuredContent/total");
  await expect(row.getByTestId("expectation-warning")).toHaveCount(0);

  // The call passes when run (every proposed expectation and the written one).
  await call.getByTestId("call-run").click();
  await expect(call).toHaveAttribute("data-status", "passed", { timeout: 30_000 });
  await expect(call.getByTestId("expectation-row").first()).toHaveAttribute("data-verdict", "pass");
});

test("export, import: byte-identical; a link opens the collection in another browser without any header value", async ({
  page,
  browser,
}) => {
  await page.addInitScript(
    (secret) => sessionStorage.setItem("toolscope.headers.v1", JSON.stringify({ "builtin:demo": { Authorization: secret } })),
    SECRET,
  );
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
  const original = writeCollection(exampleCollection());
  const file = join(dir, "example.json");
  writeFileSync(file, original);
  await openTests(page, "builtin:demo");
  await importFile(page, file);
  await expect(calls(page)).toHaveCount(5);
  const download = page.waitForEvent("download");
  await panel(page).getByTestId("collection-export").click();
  const exported = readFileSync(await (await download).path(), "utf8");
  expect(exported).toBe(original);

  // A broken file changes nothing and says where.
  writeFileSync(join(dir, "broken.json"), original.replace('"maxMs": 5000', '"maxMs": "soon"'));
  await importFile(page, join(dir, "broken.json"));
  await expect(panel(page).getByTestId("collection-problems")).toContainText(
    /broken\.json:\d+:\d+: \/calls\/0\/expect\/4\/maxMs: maxMs must be integer/,
  );
  await expect(calls(page)).toHaveCount(5);

  await panel(page).getByTestId("collection-share").click();
  await expect(panel(page).getByTestId("collection-status")).toContainText("never a header value");
  const link = await page.evaluate(() => navigator.clipboard.readText());
  expect(link).toMatch(/\/playground\?server=builtin%3Ademo#c1\./);
  // The link carries exactly the file: decoded, it is the export byte for byte (no header, no value of the tab's).
  expect(writeCollection(decodeCollectionShare(new URL(link).hash))).toBe(original);

  const other = await browser.newPage();
  await other.goto(link.replace(/^https?:\/\/[^/]+/, ""));
  await expect(other.getByTestId("collection-panel")).toBeVisible({ timeout: 45_000 });
  await expect(other.getByTestId("collection-call")).toHaveCount(5);
  await expect(other.getByTestId("collection-status")).toContainText("Opened the shared collection “Issue lifecycle”");
  const again = other.waitForEvent("download");
  await other.getByTestId("collection-export").click();
  expect(readFileSync(await (await again).path(), "utf8")).toBe(original);
  await other.close();

  // The tab's header goes into the file by name only: the file then says what a runner must supply.
  await panel(page).getByTestId("collection-environment").locator("summary").click();
  await panel(page).getByTestId("collection-use-tab-headers").click();
  await expect(panel(page).getByTestId("collection-header-names")).toHaveValue("Authorization");
  await expect(panel(page).getByTestId("collection-missing-headers")).toHaveCount(0);
  await panel(page).getByTestId("collection-header-names").fill("Authorization, X-Api-Key");
  await expect(panel(page).getByTestId("collection-missing-headers")).toContainText("This collection needs X-Api-Key");
  await shootSizes(page, SHOTS, "environment", { show: panel(page).getByTestId("collection-environment") });
  await panel(page).getByTestId("collection-header-names").fill("Authorization: Bearer x");
  await expect(panel(page).getByRole("alert").filter({ hasText: "is not a header name" })).toBeVisible();
  await panel(page).getByTestId("collection-header-names").fill("Authorization");
  const withHeaders = page.waitForEvent("download");
  await panel(page).getByTestId("collection-export").click();
  const file2 = readFileSync(await (await withHeaders).path(), "utf8");
  expect(JSON.parse(file2).environment).toEqual({ headers: ["Authorization"], variables: { team: "platform" } });
  expect(file2).not.toContain("sk-live");
});

test("MRTR during a run: a prepared answer, else the person is asked (and a refusal stops that call only)", async ({ page }) => {
  await openTests(page, "builtin:demo");
  await page.getByTestId("pref-confirm-destructive").uncheck();
  await importFile(page, writeFile("purge.json", purgeCollection()));
  await panel(page).getByTestId("collection-run-all").click();
  const dialog = mrtrDialog(page);
  await expect(dialog).toBeVisible({ timeout: 30_000 });
  await expect(dialog.getByTestId("elicitation-message")).toContainText("Permanently delete");
  await dialog.getByTestId("elicit-decline").click();
  await expect(panel(page).getByTestId("collection-summary")).toContainText("4 calls: 4 passed");
  const asked = calls(page).nth(2);
  await asked.getByTestId("call-exchange").click();
  await expect(asked.getByTestId("run-exchange")).toContainText("Nothing was deleted: the user declined");
});

test("a published server (server-everything, 2025-11-25): elicitation mid-call from a prepared answer, else the person", async ({
  page,
}) => {
  const everything = await startEverythingServer("streamableHttp");
  try {
    const elicit = { method: "tools/call", params: { name: "trigger-elicitation-request", arguments: {} } };
    const c: Collection = {
      format: "toolscope.collection/1",
      name: "Everything",
      environment: { server: everything.url },
      calls: [
        {
          name: "echo",
          request: { method: "tools/call", params: { name: "echo", arguments: { message: "hello from a collection" } } },
          expect: [
            { kind: "is-error", value: false },
            { kind: "text-contains", text: "hello from a collection" },
            { kind: "latency", maxMs: 5000 },
          ],
        },
        {
          name: "elicitation, prepared",
          request: elicit,
          answers: { "elicitation/create": { action: "accept", content: { name: "Ada Lovelace", check: true } } },
          expect: [{ kind: "text-contains", text: "User provided the requested information" }],
        },
        { name: "elicitation, asked", request: elicit, expect: [{ kind: "text-contains", text: "User declined" }] },
        {
          name: "tool listed",
          request: { method: "tools/list" },
          expect: [
            { kind: "tool-listed", tool: "get-sum" },
            { kind: "tool-listed", tool: "no-such-tool", listed: false },
          ],
        },
      ],
    };
    await openTests(page, everything.url);
    await page.getByTestId("pref-confirm-destructive").uncheck();
    await importFile(page, writeFile("everything.json", c));
    await panel(page).getByTestId("collection-run-all").click();
    // The prepared answer went without a dialog; the unprepared one asks the person.
    const dialog = page.getByTestId("server-request-dialog");
    await expect(dialog).toBeVisible({ timeout: 30_000 });
    await expect(calls(page).nth(1)).toHaveAttribute("data-status", "passed");
    await expect(dialog.getByTestId("server-request-server")).toContainText("Everything");
    await dialog.getByTestId("elicit-decline").click();
    await expect(panel(page).getByTestId("collection-summary")).toContainText("4 calls: 4 passed", { timeout: 30_000 });
    const prepared = calls(page).nth(1);
    await prepared.getByTestId("call-exchange").click();
    await prepared.getByTestId("run-exchange").getByRole("tab", { name: "HTTP" }).click();
    await expect(prepared.getByTestId("server-request-record")).toHaveAttribute("data-answered-by", "prepared");
    await expect(prepared.getByTestId("server-request-record")).toContainText("answered from the collection");
    const asked = calls(page).nth(2);
    await asked.getByTestId("call-exchange").click();
    await asked.getByTestId("run-exchange").getByRole("tab", { name: "HTTP" }).click();
    await expect(asked.getByTestId("server-request-record")).toHaveAttribute("data-answered-by", "user");
    await shootSizes(page, SHOTS, "published-server-run", { show: panel(page) });
  } finally {
    everything.stop();
  }
});
