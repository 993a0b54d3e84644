import { expect, test } from "./test";
import type { Page } from "@playwright/test";
import { forbidExternalRequests } from "./helpers";

/** Docs of the published @modelcontextprotocol/server-everything (legacy era), and every annotation badge state. */

const toolPage = (server: string, name: string) => `/docs/tools/${encodeURIComponent(name)}?server=${encodeURIComponent(server)}`;

/** The effective value of one hint as the badge states it: value, set or default, meaningful or not. */
async function hint(page: Page, key: string) {
  const span = page.getByTestId(`annotation-${key}`).locator("[data-source]");
  return {
    value: await span.getAttribute("data-value"),
    source: await span.getAttribute("data-source"),
    meaningful: await span.getAttribute("data-meaningful"),
  };
}

test.describe("docs of server-everything", () => {
  test("the server page lists its tools in the legacy era", async ({ page }) => {
    const external = forbidExternalRequests(page);
    await page.goto(`/docs?server=${encodeURIComponent(process.env.EVERYTHING_URL!)}`);
    await expect(page.getByTestId("server-era")).toContainText("legacy");
    const index = page.getByTestId("tool-index");
    for (const name of ["echo", "get-sum", "get-structured-content"]) await expect(index.getByTestId(`tool-row-${name}`)).toBeVisible();
    await index.getByTestId("tool-row-get-sum").getByRole("link").click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Get Sum Tool");
    expect(external).toEqual([]);
  });

  test("tool pages: echo, get-sum and get-structured-content (with an output schema)", async ({ page }) => {
    const server = process.env.EVERYTHING_URL!;
    await page.goto(toolPage(server, "echo"));
    await expect(page.getByTestId("input-schema").getByTestId("param-name").first()).toHaveText("message");
    await expect(page.getByTestId("example-call")).toContainText('"name": "echo"');
    await expect(page.getByTestId("example-call")).toContainText("checked against it");

    await page.goto(toolPage(server, "get-sum"));
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Get Sum Tool");
    await expect(page.getByText("get-sum", { exact: true }).first()).toBeVisible();
    const params = page.getByTestId("input-schema");
    await expect(params.getByTestId("param-row")).toHaveCount(2);
    await expect(params).toContainText("First number");
    await expect(params.getByTestId("param-required")).toHaveCount(2);
    await expect(page.getByTestId("annotation-readOnlyHint")).toContainText("read-only");

    await page.goto(toolPage(server, "get-structured-content"));
    await expect(page.getByTestId("input-schema")).toContainText("New York");
    const output = page.getByTestId("output-schema");
    await expect(output).toContainText("structuredContent");
    await expect(output).toContainText("temperature");
    await expect(output).toContainText("Humidity percentage");
    await expect(page.getByTestId("model-view-claude")).toContainText('"input_schema"');
  });
});

test.describe("annotation badges: every state, set or defaulted", () => {
  test("read-only set; destructive and idempotent then do not apply; closed world set (demo search_issues)", async ({ page }) => {
    await page.goto(toolPage("builtin:demo", "search_issues"));
    expect(await hint(page, "readOnlyHint")).toEqual({ value: "true", source: "set", meaningful: "true" });
    expect((await hint(page, "destructiveHint")).meaningful).toBe("false");
    expect((await hint(page, "idempotentHint")).meaningful).toBe("false");
    expect(await hint(page, "openWorldHint")).toEqual({ value: "false", source: "set", meaningful: "true" });
    await expect(page.getByTestId("annotation-untrusted-note")).toBeVisible();
  });

  test("destructive set true and idempotent set true (demo delete_issue)", async ({ page }) => {
    await page.goto(toolPage("builtin:demo", "delete_issue"));
    expect(await hint(page, "readOnlyHint")).toEqual({ value: "false", source: "set", meaningful: "true" });
    expect(await hint(page, "destructiveHint")).toEqual({ value: "true", source: "set", meaningful: "true" });
    expect(await hint(page, "idempotentHint")).toEqual({ value: "true", source: "set", meaningful: "true" });
  });

  test("destructive set false and idempotent set false (demo create_issue)", async ({ page }) => {
    await page.goto(toolPage("builtin:demo", "create_issue"));
    expect(await hint(page, "destructiveHint")).toEqual({ value: "false", source: "set", meaningful: "true" });
    expect(await hint(page, "idempotentHint")).toEqual({ value: "false", source: "set", meaningful: "true" });
  });

  test("open world set (server-everything gzip-file-as-resource)", async ({ page }) => {
    await page.goto(toolPage(process.env.EVERYTHING_URL!, "gzip-file-as-resource"));
    expect(await hint(page, "openWorldHint")).toEqual({ value: "true", source: "set", meaningful: "true" });
  });

  test("no annotations: every hint is the spec default and says so (hostile fixture jira.create_issue)", async ({ page }) => {
    // The demo annotates every tool, so the defaults come from the fixture server.
    await page.goto(toolPage(process.env.HOSTILE_URL!, "jira.create_issue"));
    expect(await hint(page, "readOnlyHint")).toEqual({ value: "false", source: "default", meaningful: "true" });
    expect(await hint(page, "destructiveHint")).toEqual({ value: "true", source: "default", meaningful: "true" });
    expect(await hint(page, "idempotentHint")).toEqual({ value: "false", source: "default", meaningful: "true" });
    expect(await hint(page, "openWorldHint")).toEqual({ value: "true", source: "default", meaningful: "true" });
    await expect(page.getByTestId("annotation-destructiveHint")).toContainText("default");
  });
});
