/**
 * Refusal messages quote the server (URIs, frontmatter values): a server that echoes the user's header values into
 * them must not get those values shown, logged or kept in history. Masked like every ProxyError message.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { SkillVerificationError } from "@modelcontextprotocol/client/ext/skills";
import type { SkillEntry } from "@/lib/mcp/skills-contract";
import { secretValues } from "@/lib/mcp/mask-text";
import { withRequestSecrets } from "../../errors/request-secrets.ts";
import { fileLabel, limitRefusal, verificationRefusal } from "./skill-refusals.ts";

const TOKEN = "tok-echoed-orchid-lantern-7";
const ENTRY: SkillEntry = {
  uri: "skill://acme/notes/SKILL.md",
  frontmatter: { name: "notes", description: "Take notes." },
  resources: [{ uri: "skill://acme/notes/SKILL.md", digest: `sha256:${"0".repeat(64)}`, size: 40 }],
};

test("a frontmatter difference that quotes the user's token is masked in the message and the differences", async () => {
  const err = new SkillVerificationError("frontmatter", ENTRY.uri, "differs", [
    `description: the entry has "Take notes.", SKILL.md has "Bearer ${TOKEN}"`,
  ]);
  const refused = await withRequestSecrets(secretValues([`Bearer ${TOKEN}`]), () => verificationRefusal(err, ENTRY, undefined));
  assert.equal(refused.reason, "frontmatter");
  assert.match(refused.message, /^SKILL\.md of notes: frontmatter field description differs from the entry's/);
  assert.ok(!refused.message.includes(TOKEN), refused.message);
  assert.ok(!refused.differences?.join("\n").includes(TOKEN));
});

test("a file is named by its path under the skill's folder, else by its URI", () => {
  assert.equal(fileLabel(ENTRY, "skill://acme/notes/references/a.md"), "references/a.md");
  assert.equal(fileLabel(ENTRY, "skill://acme/other/SKILL.md"), "skill://acme/other/SKILL.md");
});

test('a "dynamic" skill has no manifest to be over a limit by', () => {
  assert.equal(limitRefusal({ ...ENTRY, resources: "dynamic" }, undefined, { fileMaxBytes: 1, maxFiles: 0, maxSkillBytes: 1 }), undefined);
});
