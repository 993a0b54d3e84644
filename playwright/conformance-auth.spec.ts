import { existsSync } from "node:fs";
import { startApp, type AppInstance } from "./fixtures/app-instance";
import { listScenarios, NODE22, NODE22_MISSING, runScenario } from "./fixtures/conformance-cli";
import { expect, test } from "./test";

/**
 * The official MCP conformance suite's authorization scenarios (`auth/*`), every one the pinned suite lists for
 * 2025-03-26 (the backcompat ones), 2025-06-18, 2025-11-25 and 2026-07-28, with Toolscope as the OAuth client: the
 * adapter (scripts/conformance-client.mjs) signs in the way the playground does — the proxy's `upstream-auth`
 * challenge, POST /api/oauth/authorize, the authorization URL followed to Toolscope's callback (the suite's server
 * approves without a person), the code sent back, the call repeated with the token, step-ups within their limit.
 *
 * A Toolscope of its own, because the suite's CIMD scenario expects its fixed client id URL
 * (TOOLSCOPE_OAUTH_CLIENT_METADATA_URL), and because its log must be read afterwards: no token, code or client
 * secret the suite issued may appear in it.
 */

const SPEC_VERSIONS = ["2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"] as const;

/** How many auth scenarios the pinned suite lists per version today: a floor, so a broken listing cannot pass as none. */
const KNOWN_COUNT: Record<(typeof SPEC_VERSIONS)[number], number> = {
  "2025-03-26": 2,
  "2025-06-18": 3,
  "2025-11-25": 14,
  "2026-07-28": 25,
};

function authScenarios(version: string): string[] | string {
  const listed = listScenarios(version);
  return typeof listed === "string" ? listed : listed.filter((name) => name.startsWith("auth/"));
}

const LISTED = SPEC_VERSIONS.map((version) => ({ version, scenarios: authScenarios(version) }));

let app: AppInstance | undefined;

test.describe("MCP conformance suite, authorization scenarios, Toolscope as the OAuth client", () => {
  test.skip(!existsSync(NODE22), NODE22_MISSING);

  test.beforeAll(async () => {
    app = await startApp({
      TOOLSCOPE_MODE: "local",
      TOOLSCOPE_REQUEST_TIMEOUT_MS: "5000",
      TOOLSCOPE_LOG_LEVEL: "debug",
      TOOLSCOPE_OAUTH_CLIENT_METADATA_URL: "https://conformance-test.local/client-metadata.json",
    });
  });

  test.afterAll(async () => {
    await app?.stop();
  });

  test("the suite lists the auth scenarios of every spec version", () => {
    for (const { version, scenarios } of LISTED) {
      expect(typeof scenarios === "string" ? scenarios : "", `listing ${version}`).toBe("");
      expect(scenarios.length, `auth scenarios listed for ${version}: ${String(scenarios)}`).toBeGreaterThanOrEqual(KNOWN_COUNT[version]);
    }
  });

  for (const { version, scenarios } of LISTED) {
    if (typeof scenarios === "string") continue;
    for (const scenario of scenarios) {
      test(`${scenario} (spec ${version})`, async () => {
        test.setTimeout(90_000);
        const run = await runScenario(scenario, version, app!.url);
        expect(run.bad, `${run.report}\nadapter output:\n${run.clientOutput}`).toEqual([]);
        expect(run.checks.filter((c) => c.status === "SUCCESS").length, run.report).toBeGreaterThan(0);
        expect(run.code, `${run.report}\nadapter output:\n${run.clientOutput}`).toBe(0);
      });
    }
  }

  test("no token, code or client secret the suite issued reached Toolscope's log", () => {
    const log = app!.log();
    // The log is not empty (the instance logged its start and the requests), so its absence means something.
    expect(log).toContain("ready on");
    for (const secret of ["test-token-", "test-auth-code", "test-client-secret", "as1-client-secret", "as2-client-secret", "cc-token"])
      expect(log, `"${secret}" in the log`).not.toContain(secret);
  });
});
