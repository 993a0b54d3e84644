import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { lintSkill, lintSkills, SKILL_SPEC_LIMITS } from "./skill-lints.ts";

const digestOf = (text: string) => `sha256:${createHash("sha256").update(text).digest("hex")}`;

/** A valid entry for a skill called `name` under skill://acme/, with SKILL.md and one reference file. */
function entry(name = "pdf-processing", over: Record<string, unknown> = {}) {
  const uri = `skill://acme/${name}/SKILL.md`;
  return {
    uri,
    frontmatter: { name, description: "Extract text and tables from PDF files; use it whenever a task reads or fills a PDF." },
    resources: [
      { uri, size: 120, digest: digestOf("a") },
      { uri: `skill://acme/${name}/references/FORMS.md`, size: 40, digest: digestOf("b") },
    ],
    ...over,
  };
}

const ids = (e: unknown) => lintSkill(e).map((f) => f.id);

test("a well-formed entry has no findings; every finding names its skill", () => {
  assert.deepEqual(lintSkill(entry()), []);
  const [finding] = lintSkill(entry("pdf-processing", { resources: "dynamic" }));
  assert.equal(finding.skill, "skill://acme/pdf-processing/SKILL.md");
  assert.ok(finding.message && finding.why && finding.fix);
});

test("names: missing, against the Agent Skills rules (case, characters, hyphens, 64 characters), not the folder's", () => {
  assert.deepEqual(ids({ ...entry(), frontmatter: { description: entry().frontmatter.description } }), ["skill-name-missing"]);
  for (const bad of ["PDF-processing", "pdf_processing", "-pdf", "pdf-", "pdf--processing", "a".repeat(65)]) {
    const e = entry(bad);
    assert.deepEqual(ids(e), ["skill-name-invalid"], bad);
  }
  assert.deepEqual(ids(entry("a".repeat(64))), []);
  const invalid = lintSkill(entry("PDF Tools"))[0];
  assert.match(invalid.fix, /"pdf-tools"/);
  const moved = { ...entry(), frontmatter: { ...entry().frontmatter, name: "pdf-tools" } };
  const [mismatch] = lintSkill(moved);
  assert.equal(mismatch.id, "skill-name-folder-mismatch");
  assert.match(mismatch.message, /"pdf-tools".*"pdf-processing"/);
  // A percent-encoded folder still names the skill.
  const e = entry("pdf-processing");
  assert.deepEqual(ids({ ...e, uri: "skill://acme/pdf%2Dprocessing/SKILL.md", resources: "dynamic" }), ["skill-dynamic"]);
});

test("descriptions: missing, thin, over the 1,024-character limit (counted in characters, not UTF-16 units)", () => {
  const withDescription = (description: unknown) => ({ ...entry(), frontmatter: { name: "pdf-processing", description } });
  assert.deepEqual(ids(withDescription(undefined)), ["skill-description-missing"]);
  assert.deepEqual(ids(withDescription("   ")), ["skill-description-missing"]);
  assert.deepEqual(ids(withDescription("PDF tools.")), ["skill-description-thin"]);
  assert.deepEqual(ids(withDescription("x".repeat(1025))), ["skill-description-too-long"]);
  assert.deepEqual(ids(withDescription("😀".repeat(1024))), [], "1,024 emoji are 1,024 characters");
});

test('resources: "dynamic" is info, anything else but a list is an error', () => {
  const dynamic = lintSkill(entry("pdf-processing", { resources: "dynamic" }));
  assert.deepEqual(
    dynamic.map((f) => [f.id, f.severity]),
    [["skill-dynamic", "info"]],
  );
  assert.match(dynamic[0].why, /no size or digest/);
  assert.deepEqual(ids(entry("pdf-processing", { resources: undefined })), ["skill-resources-invalid"]);
  assert.deepEqual(ids(entry("pdf-processing", { resources: "static" })), ["skill-resources-invalid"]);
});

test("manifests: SKILL.md left out, a file listed twice, files outside the folder, digests and sizes malformed", () => {
  const e = entry();
  const [skillMd, forms] = e.resources;
  assert.deepEqual(ids({ ...e, resources: [forms] }), ["skill-manifest-no-skill-md"]);
  assert.deepEqual(ids({ ...e, resources: [skillMd, forms, forms] }), ["skill-file-duplicate"]);
  for (const uri of [
    "skill://acme/other-skill/SKILL.md",
    "skill://acme/pdf-processing/../other/x.md",
    "skill://acme/pdf-processing/%2E%2E/x.md",
    "skill://acme/pdf-processing//x.md",
    "skill://acme/pdf-processing/x.md?v=2",
    "https://evil.example/pdf-processing/x.md",
  ]) {
    const found = lintSkill({ ...e, resources: [skillMd, { ...forms, uri }] });
    assert.deepEqual(
      found.map((f) => f.id),
      ["skill-file-outside"],
      uri,
    );
    assert.ok(found[0].message.includes(uri), "the message names the file");
  }
  for (const digest of ["sha256:" + "A".repeat(64), "sha256:" + "a".repeat(63), "sha1:" + "a".repeat(40), "a".repeat(64), undefined])
    assert.deepEqual(ids({ ...e, resources: [skillMd, { ...forms, digest }] }), ["skill-digest-malformed"], String(digest));
  for (const size of [-1, 1.5, "40", undefined])
    assert.deepEqual(ids({ ...e, resources: [skillMd, { ...forms, size }] }), ["skill-size-invalid"], String(size));
});

test("the extension's limits: over 512 files, over 16 MiB in all (exactly at them is fine)", () => {
  const e = entry();
  const files = (n: number, size: number) => [
    { ...e.resources[0], size },
    ...Array.from({ length: n - 1 }, (_, i) => ({ uri: `skill://acme/pdf-processing/t/${i}.md`, size, digest: digestOf(String(i)) })),
  ];
  assert.deepEqual(ids({ ...e, resources: files(SKILL_SPEC_LIMITS.maxFiles, 1) }), []);
  assert.deepEqual(ids({ ...e, resources: files(SKILL_SPEC_LIMITS.maxFiles + 1, 1) }), ["skill-too-many-files"]);
  assert.deepEqual(ids({ ...e, resources: files(2, SKILL_SPEC_LIMITS.maxBytes / 2) }), []);
  const [big] = lintSkill({ ...e, resources: files(2, SKILL_SPEC_LIMITS.maxBytes / 2 + 1) });
  assert.equal(big.id, "skill-too-large");
  assert.match(big.message, /16,777,218 bytes/);
});

test("reserved metadata keys, and a URI that names no SKILL.md", () => {
  const e = entry();
  const meta = { ...e, frontmatter: { ...e.frontmatter, metadata: { "io.modelcontextprotocol/trust": "high", "acme.com/owner": "x" } } };
  const [reserved] = lintSkill(meta);
  assert.equal(reserved.id, "skill-metadata-reserved");
  assert.match(reserved.message, /io\.modelcontextprotocol\/trust/);
  assert.doesNotMatch(reserved.message, /acme/);
  assert.deepEqual(ids({ ...e, uri: "skill://acme/pdf-processing/README.md" }).slice(0, 1), ["skill-uri-not-skill-md"]);
  assert.deepEqual(ids({}).slice(0, 1), ["skill-uri-not-skill-md"]);
  assert.ok(lintSkill(null).length > 0, "anything at all is linted without throwing");
});

test("a listing: duplicate names across skills (one finding per skill), invalid entries, most severe first", () => {
  const a = entry("report");
  const b = { ...entry("report"), uri: "skill://other/report/SKILL.md", resources: "dynamic" };
  const { findings, summary } = lintSkills(
    [a, b, entry("pdf-processing")],
    [{ index: 3, uri: "skill://acme/Bad/SKILL.md", reason: 'frontmatter name "Bad" must be lowercase' }],
  );
  assert.deepEqual(
    findings.map((f) => [f.id, f.skill]),
    [
      ["skill-entry-invalid", "skill://acme/Bad/SKILL.md"],
      ["skill-name-duplicate", a.uri],
      ["skill-name-duplicate", b.uri],
      ["skill-dynamic", b.uri],
    ],
  );
  assert.match(findings[0].message, /entry 4 \(skill:\/\/acme\/Bad\/SKILL\.md\).*must be lowercase/);
  assert.match(findings[1].message, /2 skills are named "report"/);
  assert.deepEqual(summary, { error: 1, warning: 2, info: 1, total: 4 });
  // One skill listed twice under one URI is one skill, not a shared name.
  assert.deepEqual(lintSkills([a, a]).findings, []);
});
