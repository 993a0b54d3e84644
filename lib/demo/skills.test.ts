/**
 * The demo's skills, judged by the SDK's own host side (SkillsClient), in both eras: every entry is valid, every fixed
 * file matches its digest and size, every SKILL.md its entry's frontmatter (the generated one too), and directory
 * reads list each folder's direct children.
 */
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { SkillsClient } from "@modelcontextprotocol/client/ext/skills";
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { resetDemoStore } from "./issue-store.ts";
import { createDemoServerHandler, type DemoServerHandler } from "./server.ts";
import { serveFetchHandler, type ServedHandler } from "./testing/node-http-adapter.ts";

let handler: DemoServerHandler;
let served: ServedHandler;

before(async () => {
  resetDemoStore();
  handler = createDemoServerHandler({ now: () => Date.UTC(2026, 7, 3, 9, 0, 0) });
  served = await serveFetchHandler(handler);
});

after(async () => {
  await handler.close();
  await served.close();
});

async function skillsOn(modern: boolean): Promise<{ client: Client; skills: SkillsClient }> {
  const client = new Client({ name: "toolscope-test", version: "0.0.0" }, modern ? { versionNegotiation: { mode: "auto" } } : {});
  await client.connect(new StreamableHTTPClientTransport(served.url));
  return { client, skills: new SkillsClient(client) };
}

for (const modern of [true, false]) {
  describe(`demo skills, ${modern ? "modern" : "legacy"} era`, () => {
    test("declared with directoryRead; three valid entries, one of them dynamic", async () => {
      const { client, skills } = await skillsOn(modern);
      try {
        assert.equal(skills.supported, true);
        assert.equal(skills.directoryRead, true);
        const listing = await skills.list();
        assert.deepEqual(listing.invalid, []);
        assert.deepEqual(
          listing.skills.map((s) => [s.uri, s.resources === "dynamic" ? "dynamic" : s.resources.length]),
          [
            ["skill://demo/sql-reporting/SKILL.md", 2],
            ["skill://demo/triage-issues/SKILL.md", 2],
            ["skill://demo/weekly-status/SKILL.md", "dynamic"],
          ],
        );
        if (modern) assert.equal(listing.cacheScope, "public");
      } finally {
        await client.close();
      }
    });

    test("every file verifies against its entry; the generated SKILL.md against its frontmatter", async () => {
      const { client, skills } = await skillsOn(modern);
      try {
        for (const skill of (await skills.list()).skills) {
          const manifest = await skills.read(skill);
          assert.equal(manifest.frontmatter?.name, skill.frontmatter.name);
          assert.match(manifest.body ?? "", /^# /m);
          if (skill.resources === "dynamic") {
            assert.equal(manifest.verified, false);
            assert.match(manifest.text ?? "", /Generated 2026-08-03T09:00:00\.000Z/);
            continue;
          }
          assert.equal(manifest.verified, true);
          for (const file of skill.resources.filter((r) => r.uri !== skill.uri)) {
            const read = await skills.read(skill, file.uri);
            assert.equal(read.verified, true);
            assert.equal(read.mimeType, "text/markdown");
          }
        }
      } finally {
        await client.close();
      }
    });

    test("a skill folder lists its direct children; a file is not a folder", async () => {
      const { client, skills } = await skillsOn(modern);
      try {
        const dir = await skills.readDirectory("skill://demo/triage-issues");
        assert.deepEqual(
          dir.resources.map((r) => [r.uri, r.mimeType]),
          [
            ["skill://demo/triage-issues/SKILL.md", "text/markdown"],
            ["skill://demo/triage-issues/references", "inode/directory"],
          ],
        );
        await assert.rejects(skills.readDirectory("skill://demo/triage-issues/SKILL.md"), /not a directory/);
      } finally {
        await client.close();
      }
    });
  });
}
