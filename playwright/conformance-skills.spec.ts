import { expect, test } from "./test";
import { existsSync } from "node:fs";
import { NODE22, NODE22_MISSING, runScenario } from "./fixtures/conformance-cli";

/**
 * The official conformance suite's client scenarios for the skills extension (SEP-2640), with Toolscope's proxy as the
 * host: scripts/conformance-client.mjs lists skills and loads one through POST /api/skills, as the browser does. The
 * suite marks them as extension scenarios, so its `list --client --spec-version V` (which conformance.spec.ts runs)
 * leaves them out: they are named here. Each runs on the suite's default version (2025-11-25: a legacy connection,
 * whose capabilities the adapter sends along) and, forced, on 2026-07-28 (a modern one).
 *
 * - no-prefetch: listing must fetch no skill file;
 * - verify-digest, -size, -frontmatter: the mock serves a SKILL.md that fails one check; the proxy must refuse it, so
 *   the adapter never goes on to the skill's other file (the suite fails a client that reads it, or never reads SKILL.md).
 */

const SCENARIOS = [
  { scenario: "sep-2640-client-no-prefetch", check: "sep-2640-host-no-prefetch", refused: undefined },
  { scenario: "sep-2640-client-verify-digest", check: "sep-2640-host-verify-digest", refused: /refused the skill \{"reason":"digest"/ },
  { scenario: "sep-2640-client-verify-size", check: "sep-2640-host-size-mismatch-failure", refused: /refused the skill \{"reason":"size"/ },
  {
    scenario: "sep-2640-client-verify-frontmatter",
    check: "sep-2640-host-frontmatter-comparison",
    refused: /refused the skill \{"reason":"frontmatter".*frontmatter field description differs/,
  },
] as const;

const VERSIONS = [
  { version: null, force: false, label: "suite default, 2025-11-25" },
  { version: "2026-07-28", force: true, label: "2026-07-28, forced" },
] as const;

test.describe("MCP conformance suite, skills extension (SEP-2640) client scenarios, Toolscope's proxy as the host", () => {
  test.skip(!existsSync(NODE22), NODE22_MISSING);

  for (const { scenario, check, refused } of SCENARIOS) {
    for (const { version, force, label } of VERSIONS) {
      test(`${scenario} (${label})`, async ({ baseURL }) => {
        test.setTimeout(90_000);
        const run = await runScenario(scenario, version, baseURL!, { force });
        const context = `${run.report}\nadapter output:\n${run.clientOutput}`;
        expect(run.bad, context).toEqual([]);
        expect(
          run.checks.filter((c) => c.id === check).map((c) => c.status),
          context,
        ).toEqual(["SUCCESS"]);
        expect(run.code, context).toBe(0);
        if (refused) expect(run.clientOutput, "the adapter saw the proxy's refusal").toMatch(refused);
        else expect(run.clientOutput).not.toMatch(/refused the skill/);
      });
    }
  }
});
