import { test } from "node:test";
import assert from "node:assert/strict";
import {
  bytesText,
  declaresSkills,
  extraFrontmatter,
  fieldText,
  folderName,
  isMarkdownFile,
  manifestFiles,
  manifestTotals,
  pathInSkill,
  roundedBytes,
  shortDigest,
  skillFolder,
  skillHref,
} from "./skill-facts.ts";

const SKILL = "skill://acme/pdf-processing/SKILL.md";

test("the declaration: an object under capabilities.extensions, nothing else", () => {
  assert.equal(declaresSkills({ extensions: { "io.modelcontextprotocol/skills": {} } }), true);
  assert.equal(declaresSkills({ extensions: { "io.modelcontextprotocol/skills": { directoryRead: true } } }), true);
  assert.equal(declaresSkills({ extensions: { "io.modelcontextprotocol/skills": true } }), false);
  assert.equal(declaresSkills({ resources: {} }), false);
  assert.equal(declaresSkills(undefined), false);
});

test("a skill's folder, its name and a file's path in it", () => {
  assert.equal(skillFolder(SKILL), "skill://acme/pdf-processing/");
  assert.equal(folderName(SKILL), "pdf-processing");
  assert.equal(folderName("skill://pdf%2Dprocessing/SKILL.md"), "pdf-processing");
  assert.equal(folderName("skill://demo/SKILL.md"), "demo", "the authority is the folder when the path has none");
  assert.equal(skillFolder("skill:///SKILL.md"), undefined);
  assert.equal(skillFolder("skill://acme/pdf-processing/README.md"), undefined);
  assert.equal(pathInSkill(SKILL, "skill://acme/pdf-processing/references/FORMS.md"), "references/FORMS.md");
  assert.equal(pathInSkill(SKILL, "skill://acme/other/x.md"), "skill://acme/other/x.md");
});

test("manifest totals and order: SKILL.md first, then by path; a dynamic skill has none", () => {
  const resources = [
    { uri: "skill://acme/pdf-processing/z.md", size: 5, digest: "" },
    { uri: "skill://acme/pdf-processing/a/b.md", size: 7, digest: "" },
    { uri: SKILL, size: 100, digest: "" },
  ];
  assert.deepEqual(manifestTotals({ resources }), { files: 3, bytes: 112 });
  assert.equal(manifestTotals({ resources: "dynamic" }), undefined);
  assert.deepEqual(
    manifestFiles({ uri: SKILL, frontmatter: { name: "pdf-processing", description: "" }, resources }).map((f) => f.size),
    [100, 7, 5],
  );
});

test("sizes, digests, Markdown files, frontmatter fields and links as shown", () => {
  assert.equal(bytesText(1), "1 byte");
  assert.equal(bytesText(1234), "1,234 bytes");
  assert.equal(roundedBytes(4_000), "");
  assert.equal(roundedBytes(20 * 1024), "20.0 KiB");
  assert.equal(roundedBytes(3 * 1024 * 1024), "3.0 MiB");
  assert.equal(shortDigest(`sha256:${"ab".repeat(32)}`), "sha256:abababababab…");
  assert.equal(shortDigest("md5:x"), "md5:x");
  assert.equal(isMarkdownFile("skill://a/b/SKILL.md"), true);
  assert.equal(isMarkdownFile("skill://a/b/notes.txt", "text/markdown; charset=utf-8"), true);
  assert.equal(isMarkdownFile("skill://a/b/page.md", "text/plain"), false, "the server's MIME type wins");
  assert.deepEqual(extraFrontmatter({ name: "a", description: "b", license: "MIT", metadata: { v: "1" } }), [
    ["license", "MIT"],
    ["metadata", { v: "1" }],
  ]);
  assert.equal(fieldText({ v: "1" }), '{"v":"1"}');
  assert.equal(skillHref("builtin:demo", SKILL), "/docs/skill?server=builtin%3Ademo&uri=skill%3A%2F%2Facme%2Fpdf-processing%2FSKILL.md");
});
