import { afterEach, test } from "node:test";
import assert from "node:assert/strict";
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { ExplorerSkills } from "./ExplorerSkills";

afterEach(cleanup);

const CONNECTION = {
  v: 1 as const,
  url: "https://mcp.example/mcp",
  era: "legacy" as const,
  protocolVersion: "2025-11-25",
  sessionId: "s1",
};
const DECLARED = { resources: {}, extensions: { "io.modelcontextprotocol/skills": {} } };
const SKILL = {
  uri: "skill://demo/triage-issues/SKILL.md",
  frontmatter: { name: "triage-issues", description: "Triage the tracker's new issues: duplicates, labels, owners." },
  resources: [{ uri: "skill://demo/triage-issues/SKILL.md", size: 10, digest: `sha256:${"a".repeat(64)}` }],
};

/** /api/skills answered from here; every body sent is kept. */
async function withApi(run: (sent: Record<string, unknown>[]) => Promise<void>) {
  const sent: Record<string, unknown>[] = [];
  const original = globalThis.fetch;
  globalThis.fetch = (async (_url: string, init: RequestInit) => {
    const body = JSON.parse(String(init.body)) as Record<string, unknown>;
    sent.push(body);
    const answer = { op: "list", skills: [SKILL], invalid: [], warnings: [], pages: 1, directoryRead: false, exchanges: [] };
    return new Response(JSON.stringify(answer), { headers: { "content-type": "application/json" } });
  }) as typeof fetch;
  try {
    await run(sent);
  } finally {
    globalThis.fetch = original;
  }
}

function renderSkills(capabilities: Record<string, unknown>) {
  return render(
    <ExplorerSkills connection={CONNECTION} capabilities={capabilities} headers={{ "x-team": "web" }} onConnection={() => undefined} />,
  );
}

test("no group for a server that does not declare the extension", () => {
  const { container } = renderSkills({ resources: {} });
  assert.equal(container.innerHTML, "");
});

test("closed at first and silent; opening lists with the capabilities and headers; choosing opens the skill's dialog", async () => {
  await withApi(async (sent) => {
    renderSkills(DECLARED);
    const toggle = screen.getByTestId("explorer-skills-toggle");
    assert.equal(toggle.getAttribute("aria-expanded"), "false");
    assert.equal(sent.length, 0, "nothing is asked before the group is opened");
    await act(async () => void fireEvent.click(toggle));
    assert.equal(toggle.getAttribute("aria-expanded"), "true");
    assert.equal(sent.length, 1);
    assert.equal(sent[0].op, "list");
    assert.deepEqual(sent[0].capabilities, DECLARED, "a legacy connection sends what the server declared");
    assert.deepEqual(sent[0].headers, { "x-team": "web" });
    assert.match(toggle.textContent ?? "", /Skills \(1\)/);
    const item = screen.getByTestId("explorer-skill");
    assert.equal(item.getAttribute("data-skill"), "triage-issues");
    assert.ok(item.hasAttribute("data-explorer-item"), "reached with the explorer's arrow keys");
    await act(async () => void fireEvent.click(item));
    const dialog = screen.getByTestId("skill-dialog");
    assert.equal(dialog.getAttribute("aria-label"), "Skill: triage-issues");
    assert.ok(screen.getByRole("button", { name: "Load SKILL.md" }));
    assert.equal(sent.length, 1, "opening a skill reads none of its files");
  });
});
