/** The "Will be sent" preview under the editor: live, era-aware, and its header overrides on the real wire. */
import { mkdirSync } from "node:fs";
import { expect, test } from "./test";
import type { Page } from "@playwright/test";
import { focusEditor, openPlayground, setRequest } from "./helpers";

const preview = (page: Page) => page.getByTestId("send-preview");
const header = (page: Page, name: string) => preview(page).getByTestId("send-preview-headers").locator(`[data-mcp-header="${name}"]`);
const sql = (region: string) =>
  JSON.stringify({
    jsonrpc: "2.0",
    method: "tools/call",
    params: { name: "execute_sql", arguments: { query: "SELECT id FROM issues LIMIT 1", region } },
  });

test.describe("send preview (demo server, 2026-07-28)", () => {
  test("shows the stamped body and the headers, follows typing, and asks for valid JSON", async ({ page }) => {
    await openPlayground(page, "builtin:demo", "search_issues");
    await expect(preview(page).getByTestId("send-preview-request-line")).toContainText(/^POST http:\/\/[^/]+\/api\/demo\/mcp$/);
    await expect(header(page, "mcp-method")).toContainText("tools/call");
    await expect(header(page, "mcp-name")).toContainText("search_issues");
    await expect(header(page, "mcp-protocol-version")).toContainText("2026-07-28");
    const added = preview(page).getByTestId("send-preview-added");
    await expect(added).toContainText("/params/_meta/io.modelcontextprotocol~1clientInfo");
    await expect(added).toContainText("added by the playground");
    await expect(
      preview(page).getByTestId("send-preview-body").locator("[data-added]").filter({ hasText: "io.modelcontextprotocol/protocolVersion" }),
    ).toHaveCount(1);

    await setRequest(page, sql("Zürich"));
    await expect(header(page, "mcp-name")).toContainText("execute_sql");
    await expect(header(page, "mcp-param-region")).toContainText(`=?base64?${Buffer.from("Zürich").toString("base64")}?=`);
    await expect(header(page, "mcp-param-region")).toContainText('(decoded: "Zürich")');

    await focusEditor(page);
    await page.keyboard.press("ControlOrMeta+End");
    await page.keyboard.press("Backspace");
    // The preview says what Send says: what is wrong, where, and that nothing is sent until it is fixed.
    await expect(preview(page).getByTestId("send-preview-problem")).toHaveText(
      /^Line \d+, column \d+: The request is not valid JSON: .*Send will not send the request until this is fixed\.$/,
    );
  });

  test('"Write into the request" puts the id into the editor; the proxy then keeps it', async ({ page }) => {
    await openPlayground(page, "builtin:demo", "search_issues");
    await setRequest(
      page,
      JSON.stringify({ jsonrpc: "2.0", method: "tools/call", params: { name: "search_issues", arguments: { query: "login" } } }),
    );
    const added = preview(page).getByTestId("send-preview-added");
    await expect(added).toContainText("/id");
    await preview(page).getByTestId("write-/id").click();
    await expect(preview(page).getByTestId("write-/id")).toHaveCount(0);
    await expect(page.getByTestId("request-editor").locator(".view-lines")).toContainText('"id": "toolscope-');
    await page.getByTestId("send").click();
    await page.getByRole("tab", { name: /HTTP/ }).click();
    await expect(page.getByTestId("http-exchange")).not.toContainText("body /id:");
  });

  test("an overridden Mcp-Param-Region is marked, sent as written, and the demo server answers -32020", async ({ page }) => {
    await openPlayground(page, "builtin:demo", "execute_sql");
    await setRequest(page, sql("eu-west1"));
    await expect(header(page, "mcp-param-region")).toContainText("eu-west1");
    await preview(page).getByTestId("override-mcp-param-region").click();
    await preview(page).getByTestId("override-value-0").fill("us-east1");
    await expect(header(page, "mcp-param-region")).toHaveAttribute("data-overridden", "true");
    await expect(header(page, "mcp-param-region")).toContainText("us-east1");
    await expect(header(page, "mcp-param-region")).toContainText("overridden by you; derived: eu-west1");
    await expect(preview(page).getByTestId("override-count")).toHaveText("1 header override");

    await page.getByTestId("send").click();
    await expect(page.getByTestId("rpc-error")).toContainText("-32020");
    await page.getByRole("tab", { name: /HTTP/ }).click();
    const sent = page.getByTestId("http-exchange").locator('[data-mcp-header="mcp-param-region"]').first();
    await expect(sent).toContainText("us-east1");
    await expect(sent).toContainText("overridden by you");

    // A bad override is flagged and not sent.
    await preview(page).getByTestId("override-value-0").fill("Zürich");
    await expect(preview(page).getByTestId("header-overrides").getByRole("alert")).toContainText("=?base64?");
    await expect(preview(page).getByTestId("override-count")).toHaveCount(0);
  });

  test("collapsing is remembered; screenshots", async ({ page }) => {
    await openPlayground(page, "builtin:demo", "execute_sql");
    await preview(page).getByTestId("send-preview-toggle").click();
    await expect(preview(page).getByTestId("send-preview-toggle")).toHaveAttribute("aria-expanded", "false");
    await page.reload();
    await expect(preview(page).getByTestId("send-preview-toggle")).toHaveAttribute("aria-expanded", "false");
    await preview(page).getByTestId("send-preview-toggle").click();
    await expect(preview(page).getByTestId("send-preview-toggle")).toHaveAttribute("aria-expanded", "true");

    const dir = process.env.PREVIEW_SHOTS;
    if (!dir) return;
    mkdirSync(dir, { recursive: true });
    await preview(page).getByTestId("override-mcp-param-region").click();
    await preview(page).getByTestId("override-value-0").fill("us-east1");
    for (const scheme of ["light", "dark"] as const) {
      await page.evaluate((s) => document.documentElement.classList.toggle("dark", s === "dark"), scheme);
      for (const width of [1280, 400]) {
        await page.setViewportSize({ width, height: 900 });
        await preview(page).scrollIntoViewIfNeeded();
        await page.screenshot({ path: `${dir}/preview-${scheme}-${width}.png`, fullPage: true });
      }
    }
  });
});

test.describe("/api/rpc headerOverrides", () => {
  test("a valid override reaches the demo server (-32020); a header that cannot be overridden is a 400 naming the rule", async ({
    request,
  }) => {
    const connected = await request.post("/api/connect", { data: { url: "builtin:demo", era: "auto" } });
    const { connection } = await connected.json();
    const message = JSON.parse(sql("eu-west1")) as Record<string, unknown>;
    const mismatch = await request.post("/api/rpc", { data: { connection, message, headerOverrides: { "Mcp-Param-Region": "us-east1" } } });
    expect(mismatch.status()).toBe(200);
    const body = await mismatch.json();
    expect(body.response.error.code).toBe(-32020);
    expect(body.added).toContainEqual({
      where: "header",
      name: "Mcp-Param-Region",
      value: "us-east1",
      overridden: true,
      replaced: "eu-west1",
    });

    const refused = await request.post("/api/rpc", { data: { connection, message, headerOverrides: { "Mcp-Method": "tools/list" } } });
    expect(refused.status()).toBe(400);
    const error = (await refused.json()).error;
    expect(error.kind).toBe("bad-request");
    expect(error.message).toContain("Only Mcp-Name and Mcp-Param-* headers can be overridden");
  });
});

test.describe("send preview (server-everything, 2025-11-25)", () => {
  test("a legacy request carries no Mcp-Name or Mcp-Param-* header, and the preview offers none to override", async ({ page }) => {
    await openPlayground(page, process.env.EVERYTHING_URL!, "echo");
    await expect(preview(page).getByTestId("send-preview-request-line")).toContainText("POST");
    await expect(preview(page).getByTestId("send-preview-headers").locator('[data-mcp-header="mcp-protocol-version"]')).toContainText(
      "2025-11-25",
    );
    await expect(header(page, "mcp-name")).toHaveCount(0);
    const overrides = preview(page).getByTestId("header-overrides");
    await expect(overrides).not.toContainText("Mcp-Param");
    await expect(overrides).not.toContainText("Mcp-Name");
    // From the keyboard: the new override starts with no name (not "Mcp-Param-").
    await overrides.getByTestId("add-override").focus();
    await page.keyboard.press("Enter");
    await expect(page.getByLabel("Overridden header 1 name")).toHaveValue("");
  });
});
