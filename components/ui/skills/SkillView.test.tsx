import { afterEach, test } from "node:test";
import assert from "node:assert/strict";
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import type { SkillEntry, SkillsReadResponse } from "@/lib/mcp/skills-contract";
import { ApiError } from "@/lib/client/api-client";
import { lintSkill } from "@/lib/docs/skills/skill-lints";
import { SkillView } from "./SkillView";

afterEach(cleanup);

const DIGEST = `sha256:${"ab".repeat(32)}`;
const ENTRY: SkillEntry = {
  uri: "skill://acme/pdf-processing/SKILL.md",
  frontmatter: { name: "pdf-processing", description: "Extract text from PDF files when a task reads one.", license: "Apache-2.0" },
  resources: [
    { uri: "skill://acme/pdf-processing/references/FORMS.md", size: 70, digest: `sha256:${"cd".repeat(32)}` },
    { uri: "skill://acme/pdf-processing/SKILL.md", size: 1234, digest: DIGEST },
    { uri: "skill://acme/pdf-processing/data/table.bin", size: 4, digest: `sha256:${"ef".repeat(32)}` },
  ],
};

/** A read function that answers from `answers` by file (undefined: SKILL.md) and records what it was asked. */
function reader(answers: Record<string, Partial<SkillsReadResponse> | Error>) {
  const asked: (string | undefined)[] = [];
  const read = async (file: string | undefined) => {
    asked.push(file);
    const answer = answers[file ?? "SKILL.md"];
    if (answer instanceof Error) throw answer;
    return { op: "read" as const, skill: ENTRY, exchanges: [], ...answer };
  };
  return { asked, read };
}

async function load(path: string) {
  await act(async () => void fireEvent.click(screen.getByRole("button", { name: `Load ${path}` })));
}

test("the manifest is shown, SKILL.md first, and nothing is read until Load", () => {
  const { asked, read } = reader({});
  render(<SkillView entry={ENTRY} findings={lintSkill(ENTRY)} read={read} />);
  const files = screen.getAllByTestId("skill-file").map((f) => f.getAttribute("data-path"));
  assert.deepEqual(files, ["SKILL.md", "data/table.bin", "references/FORMS.md"]);
  assert.match(screen.getByTestId("skill-totals").textContent ?? "", /3 files, 1,308 bytes/);
  assert.equal(screen.getByTestId("skill-field").textContent, "licenseApache-2.0");
  assert.match(screen.getAllByTestId("skill-file")[0].textContent ?? "", /1,234 bytes.*sha256:abababababab…/);
  assert.deepEqual(asked, []);
  assert.equal(screen.queryByTestId("skill-file-content"), null);
});

test("Load renders SKILL.md's body as sanitised Markdown beside what was verified", async () => {
  const body = "# Steps\n\nRead [FORMS](javascript:alert(1)) <b>first</b>.";
  const { asked, read } = reader({
    "SKILL.md": {
      file: { uri: ENTRY.uri, mimeType: "text/markdown", size: 1234, digest: DIGEST, verified: true, text: "---…", frontmatter: {}, body },
    },
  });
  render(<SkillView entry={ENTRY} findings={[]} read={read} />);
  await load("SKILL.md");
  assert.deepEqual(asked, [undefined], "SKILL.md is asked for by leaving the file out");
  assert.equal(
    screen.getByTestId("skill-file-verified").textContent,
    "✓ verified: 1,234 bytes, sha256:abababababab…; frontmatter identical to the entry's",
  );
  const md = screen.getByTestId("skill-file-markdown");
  assert.equal(md.querySelector("a[href^='javascript']"), null);
  assert.match(md.textContent ?? "", /<b>first<\/b>/, "raw HTML is text");
  assert.ok(screen.getByRole("button", { name: "Load again SKILL.md" }));
});

test("a refused SKILL.md names the file, the reason and the fix, shows no content, and keeps the other files unread", async () => {
  const { asked, read } = reader({
    "SKILL.md": {
      refused: {
        reason: "digest",
        uri: ENTRY.uri,
        message:
          "SKILL.md of pdf-processing: digest mismatch: the file hashes to sha256:00…, the manifest says sha256:ab…; the skill was not loaded.",
        hint: "Get the entry again (skills/get) and read once more.",
      },
    },
  });
  render(<SkillView entry={ENTRY} findings={[]} read={read} />);
  await load("SKILL.md");
  const refused = screen.getByTestId("skill-file-refused");
  assert.equal(refused.getAttribute("role"), "alert");
  assert.equal(refused.getAttribute("data-reason"), "digest");
  assert.match(refused.textContent ?? "", /Refused: SKILL\.md: its SHA-256 digest differs from the manifest\./);
  assert.match(refused.textContent ?? "", /Fix: Get the entry again/);
  assert.equal(screen.queryByTestId("skill-file-content"), null);
  const forms = screen.getByRole("button", { name: "Load references/FORMS.md" }) as HTMLButtonElement;
  assert.equal(forms.disabled, true);
  assert.deepEqual(asked, [undefined]);
});

test("other text is preformatted, bytes are a size note and a download, a failed request is the API's error", async () => {
  const { read } = reader({
    "skill://acme/pdf-processing/references/FORMS.md": {
      file: { uri: "x", mimeType: "text/plain", size: 70, digest: DIGEST, verified: true, text: "# not a heading here" },
    },
    "skill://acme/pdf-processing/data/table.bin": {
      file: { uri: "y", mimeType: "application/octet-stream", size: 4, digest: DIGEST, verified: true, blob: "AAECAw==" },
    },
  });
  render(<SkillView entry={ENTRY} findings={[]} read={read} />);
  await load("references/FORMS.md");
  assert.equal(screen.getByTestId("skill-file-text").textContent, "# not a heading here");
  await load("data/table.bin");
  assert.match(
    screen.getByTestId("skill-file-binary").textContent ?? "",
    /Binary file \(application\/octet-stream\), 4 bytes: not shown\. Download/,
  );
  cleanup();
  const failing = reader({ "SKILL.md": new ApiError(502, { kind: "upstream-unreachable", message: "The server could not be reached." }) });
  render(<SkillView entry={ENTRY} findings={[]} read={failing.read} />);
  await load("SKILL.md");
  assert.equal(screen.getByTestId("proxy-error").getAttribute("data-kind"), "upstream-unreachable");
});

test("a dynamic skill offers its SKILL.md alone and says it cannot be verified", async () => {
  const dynamic: SkillEntry = { ...ENTRY, resources: "dynamic" };
  const { read } = reader({
    "SKILL.md": { file: { uri: ENTRY.uri, size: 10, digest: DIGEST, verified: false, text: "x", frontmatter: {}, body: "Generated." } },
  });
  render(<SkillView entry={dynamic} findings={lintSkill(dynamic)} read={read} />);
  assert.deepEqual(
    screen.getAllByTestId("skill-file").map((f) => f.getAttribute("data-path")),
    ["SKILL.md"],
  );
  assert.equal(screen.getByTestId("skill-finding").getAttribute("data-lint-id"), "skill-dynamic");
  await load("SKILL.md");
  assert.match(screen.getByTestId("skill-file-verified").textContent ?? "", /^not verifiable \(dynamic skill\): 10 bytes as read/);
});
