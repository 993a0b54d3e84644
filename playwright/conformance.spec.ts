import { expect, test } from "./test";
import { existsSync } from "node:fs";
import { listScenarios, NODE22, NODE22_MISSING, runScenario } from "./fixtures/conformance-cli";

/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance, pinned in package.json), every client
 * scenario that is not about authorization (those are in conformance-auth.spec.ts), for each spec version the suite
 * knows (each scenario run with its own --spec-version), with Toolscope's proxy as the client: the suite starts a
 * mock server per scenario and runs scripts/conformance-client.mjs, which drives this running app through its HTTP
 * API like the browser does (streamed /api/rpc, server requests answered through /api/rpc/answer). The scenarios
 * come from the suite's own `list --client --spec-version V`, so a new suite version's scenarios run without an edit.
 */

const SPEC_VERSIONS = ["2025-06-18", "2025-11-25", "2026-07-28"] as const;

/**
 * What the pinned suite lists today (a floor: the listing must still hold these, so a broken listing or a parse
 * that finds nothing cannot pass as "no scenarios").
 */
const KNOWN: Record<(typeof SPEC_VERSIONS)[number], string[]> = {
  "2025-06-18": ["initialize", "tools_call"],
  "2025-11-25": ["initialize", "tools_call", "elicitation-sep1034-client-defaults", "sse-retry", "json-schema-2020-12-preservation"],
  "2026-07-28": [
    "tools_call",
    "request-metadata",
    "sep-2322-client-request-state",
    "http-standard-headers",
    "http-custom-headers",
    "http-invalid-tool-headers",
    "json-schema-ref-no-deref",
    "json-schema-2020-12-preservation",
  ],
};

/** The suite's non-auth client scenarios for one spec version, or an error text. */
function nonAuthScenarios(version: string): string[] | string {
  const listed = listScenarios(version);
  return typeof listed === "string" ? listed : listed.filter((name) => !name.startsWith("auth/"));
}

const LISTED = SPEC_VERSIONS.map((version) => ({ version, scenarios: nonAuthScenarios(version) }));

test.describe("MCP conformance suite, client scenarios (2025-06-18, 2025-11-25, 2026-07-28), Toolscope's proxy as the client", () => {
  test.skip(!existsSync(NODE22), NODE22_MISSING);

  test("the suite lists the non-auth client scenarios of every spec version", () => {
    for (const { version, scenarios } of LISTED) {
      expect(typeof scenarios === "string" ? scenarios : "", `listing ${version}`).toBe("");
      expect(scenarios, `the suite's non-auth client scenarios for ${version}`).toEqual(expect.arrayContaining(KNOWN[version]));
    }
  });

  for (const { version, scenarios } of LISTED) {
    if (typeof scenarios === "string") continue;
    for (const scenario of scenarios) {
      test(`${scenario} (spec ${version})`, async ({ baseURL }) => {
        test.setTimeout(90_000);
        const run = await runScenario(scenario, version, baseURL!);
        expect(run.bad, `${run.report}\nadapter output:\n${run.clientOutput}`).toEqual([]);
        expect(run.checks.filter((c) => c.status === "SUCCESS").length, run.report).toBeGreaterThan(0);
        expect(run.code, `${run.report}\nadapter output:\n${run.clientOutput}`).toBe(0);
      });
    }
  }
});
