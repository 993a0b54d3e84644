import type { Page, Response } from "@playwright/test";
import { expect, test } from "./test";
import { openPlayground, shootSizes, watchConsole } from "./helpers";
import { spawnSkillsServer, type SkillsServerProcess } from "../lib/upstream/testing/skills-server-process";

/**
 * Skills (SEP-2640) in the docs and the playground, against the demo's three skills and the SDK skills fixture in a
 * process of its own (honest, and with pdf-processing's SKILL.md tampered so that its digest no longer matches):
 * listing reads no file (the API's exchanges and the fixture's log say so), Load renders a verified file, a tampered
 * one is refused by name with no content shown, and each new control works from the keyboard. Screenshots at 1280 and
 * 400 px, light and dark, go to test-results/skills.
 */

const SHOTS = "test-results/skills";
const PDF_SKILL = "skill://pdf-processing/SKILL.md";

let honest: SkillsServerProcess;
let tampered: SkillsServerProcess;

test.beforeAll(async () => {
  [honest, tampered] = await Promise.all([spawnSkillsServer("none"), spawnSkillsServer("digest")]);
});

test.afterAll(() => {
  honest?.stop();
  tampered?.stop();
});

test.describe.configure({ timeout: 120_000 });

interface SkillsAnswer {
  op: string;
  exchanges: { request: { body?: string } }[];
  refused?: { reason: string };
}

/** Every /api/skills answer the page receives, in order. */
function skillsAnswers(page: Page): SkillsAnswer[] {
  const answers: SkillsAnswer[] = [];
  page.on("response", (res: Response) => {
    if (new URL(res.url()).pathname !== "/api/skills") return;
    void res.json().then(
      (body: SkillsAnswer) => answers.push(body),
      () => undefined,
    );
  });
  return answers;
}

/** The JSON-RPC methods an answer's exchanges carried to the server. */
function methods(answer: SkillsAnswer): string[] {
  return answer.exchanges.map((e) => {
    try {
      return (JSON.parse(e.request.body ?? "{}") as { method?: string }).method ?? "?";
    } catch {
      return "?";
    }
  });
}

const skillPage = (server: string, uri: string) => `/docs/skill?server=${encodeURIComponent(server)}&uri=${encodeURIComponent(uri)}`;

test.describe("docs", () => {
  test("the demo's skills: listed with no file read; a skill's page reads SKILL.md on Load and renders it verified", async ({ page }) => {
    const said = watchConsole(page);
    const answers = skillsAnswers(page);
    await page.goto(`/docs?server=${encodeURIComponent("builtin:demo")}`);
    const section = page.getByTestId("docs-skills");
    await expect(section).toHaveAttribute("data-state", "done");
    const cards = section.getByTestId("docs-skill");
    await expect(cards).toHaveCount(3);
    await expect(cards.filter({ hasText: "sql-reporting" }).getByTestId("skill-field")).toContainText("allowed-tools");
    await expect(cards.filter({ hasText: "triage-issues" }).getByTestId("skill-totals")).toContainText("2 files");
    await expect(cards.filter({ hasText: "weekly-status" }).getByTestId("skill-finding")).toHaveAttribute("data-lint-id", "skill-dynamic");
    await expect.poll(() => answers.length).toBe(1);
    expect(answers[0].op).toBe("list");
    expect(methods(answers[0])).not.toContain("resources/read");
    await shootSizes(page, SHOTS, "docs-skills-section", { show: section });
    answers.length = 0;

    // The skill's link, from the keyboard.
    const link = cards.filter({ hasText: "triage-issues" }).getByRole("link", { name: "triage-issues" });
    await link.focus();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/docs\/skill\?server=builtin%3Ademo&uri=skill%3A%2F%2Fdemo%2Ftriage-issues%2FSKILL\.md/);
    const view = page.getByTestId("skill-page");
    await expect(view).toHaveAttribute("data-state", "done");
    await expect(view.getByRole("heading", { level: 1 })).toHaveText("triage-issues");
    await expect(view.getByTestId("skill-file-content")).toHaveCount(0);
    await expect.poll(() => answers.map((a) => a.op)).toEqual(["get"]);
    expect(methods(answers[0])).not.toContain("resources/read");

    // Load SKILL.md from the keyboard: one resources/read, the body rendered as Markdown beside what was verified.
    const load = view.getByRole("button", { name: "Load SKILL.md" });
    await load.focus();
    await page.keyboard.press("Enter");
    const content = view.getByTestId("skill-file-content");
    await expect(content.getByTestId("skill-file-verified")).toHaveText(
      /^✓ verified: [\d,]+ bytes, sha256:[0-9a-f]{12}…; frontmatter identical/,
    );
    await expect(content.getByTestId("skill-file-markdown")).toContainText("Use this skill when someone asks to triage");
    await expect(content.getByTestId("skill-file-markdown").locator("li").first()).toBeVisible();
    await expect.poll(() => answers.map((a) => a.op)).toEqual(["get", "read"]);
    expect(methods(answers[1]).filter((m) => m === "resources/read")).toHaveLength(1);

    await view.getByRole("button", { name: "Load references/LABELS.md" }).click();
    await expect(view.getByTestId("skill-file-content").nth(1).locator("table")).toContainText("security");
    await shootSizes(page, SHOTS, "docs-skill-page", { show: view });
    expect(said).toEqual([]);
  });

  test("a tampered SKILL.md: refused by name with the reason and the fix, no content, its other file never read", async ({ page }) => {
    await page.goto(`/docs?server=${encodeURIComponent(tampered.url)}`);
    const section = page.getByTestId("docs-skills");
    await expect(section).toHaveAttribute("data-state", "done");
    await expect(section.getByTestId("docs-skill")).toHaveCount(4);
    expect(await tampered.reads(), "listing read no file").toEqual([]);

    await page.goto(skillPage(tampered.url, PDF_SKILL));
    const view = page.getByTestId("skill-page");
    await expect(view).toHaveAttribute("data-state", "done");
    await view.getByRole("button", { name: "Load SKILL.md" }).click();
    const refused = view.getByTestId("skill-file-refused");
    await expect(refused).toHaveAttribute("data-reason", "digest");
    await expect(refused).toContainText("Refused: SKILL.md: its SHA-256 digest differs from the manifest.");
    await expect(refused).toContainText(/SKILL\.md of pdf-processing: digest mismatch/);
    await expect(refused).toContainText("Fix:");
    await expect(view.getByTestId("skill-file-content")).toHaveCount(0);
    await expect(view).not.toContainText("drop the page breaks");
    await expect(view.getByRole("button", { name: "Load references/FORMS.md" })).toBeDisabled();
    expect(await tampered.reads()).toEqual([PDF_SKILL]);
    await shootSizes(page, SHOTS, "docs-skill-refused", { show: view });
  });
});

test.describe("playground", () => {
  test.beforeEach(async ({ page }) => {
    // The explorer open (the default), whatever an earlier test chose.
    await page.addInitScript(() => {
      if (!sessionStorage.getItem("skills-spec-init")) {
        localStorage.removeItem("toolscope.playground-prefs.v1");
        sessionStorage.setItem("skills-spec-init", "1");
      }
    });
  });

  test("the Skills group lists when opened, a skill opens in a dialog, Load verifies; all from the keyboard", async ({ page }) => {
    const said = watchConsole(page);
    const answers = skillsAnswers(page);
    await openPlayground(page, honest.url);
    const group = page.getByTestId("explorer-skills");
    const toggle = group.getByTestId("explorer-skills-toggle");
    await expect(toggle).toHaveAttribute("aria-expanded", "false");
    expect(answers, "nothing asked before the group is opened").toEqual([]);

    await toggle.focus();
    await page.keyboard.press("Enter");
    await expect(toggle).toHaveText(/Skills \(4\)/);
    expect(answers.map((a) => a.op)).toEqual(["list"]);
    expect(methods(answers[0])).not.toContain("resources/read");
    expect(await honest.reads(), "listing read no file").toEqual([]);

    // Refresh lists again, from the keyboard.
    await group.getByTestId("explorer-skills-refresh").focus();
    await page.keyboard.press("Enter");
    await expect.poll(() => answers.map((a) => a.op)).toEqual(["list", "list"]);
    await expect(toggle).toHaveText(/Skills \(4\)/);

    const item = group.getByTestId("explorer-skill").filter({ hasText: "pdf-processing" });
    await item.focus();
    await page.keyboard.press("Enter");
    const dialog = page.getByTestId("skill-dialog");
    await expect(dialog).toBeVisible();
    await expect(dialog.getByTestId("skill-facts")).toContainText("Apache-2.0");
    const load = dialog.getByRole("button", { name: "Load SKILL.md" });
    await load.focus();
    await page.keyboard.press("Space");
    await expect(dialog.getByTestId("skill-file-verified")).toHaveText(/^✓ verified: [\d,]+ bytes, sha256:[0-9a-f]{12}…/);
    await expect(dialog.getByTestId("skill-file-markdown")).toContainText("keep the page breaks");
    expect(await honest.reads()).toEqual([PDF_SKILL]);
    await shootSizes(page, SHOTS, "playground-skill-dialog", { show: dialog.getByTestId("skill-view") });

    await page.keyboard.press("Escape");
    await expect(dialog).toHaveCount(0);
    await expect(item).toBeFocused();

    // A binary file: its size and a download, never its bytes on screen.
    await group.getByTestId("explorer-skill").filter({ hasText: "big-data" }).click();
    await dialog.getByRole("button", { name: "Load data/big.bin" }).click();
    await expect(dialog.getByTestId("skill-file-binary")).toContainText("4,096 bytes: not shown.");
    const download = page.waitForEvent("download");
    await dialog.getByRole("button", { name: "Download" }).focus();
    await page.keyboard.press("Enter");
    expect((await download).suggestedFilename()).toBe("big.bin");
    await page.keyboard.press("Escape");
    // The explorer from its top, its own list scrolled to the group (where the keyboard left it).
    await group.scrollIntoViewIfNeeded();
    await shootSizes(page, SHOTS, "playground-skills-group", { show: page.getByTestId("explorer") });
    expect(said).toEqual([]);
  });

  test("the demo in the playground: its three skills, the dynamic one read and said to be unverifiable", async ({ page }) => {
    await openPlayground(page, "builtin:demo");
    const group = page.getByTestId("explorer-skills");
    await group.getByTestId("explorer-skills-toggle").click();
    await expect(group.getByTestId("explorer-skill")).toHaveCount(3);
    await expect(group.getByTestId("explorer-skill").filter({ hasText: "weekly-status" })).toContainText("dynamic");
    await group.getByTestId("explorer-skill").filter({ hasText: "weekly-status" }).click();
    const dialog = page.getByTestId("skill-dialog");
    await dialog.getByRole("button", { name: "Load SKILL.md" }).click();
    await expect(dialog.getByTestId("skill-file-verified")).toHaveText(/^not verifiable \(dynamic skill\)/);
    await expect(dialog.getByTestId("skill-file-markdown")).toContainText("Weekly status");
  });
});
