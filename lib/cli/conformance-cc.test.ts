/**
 * OAuth for machines through the command line: the official conformance suite's client credentials scenarios
 * (`auth/client-credentials-basic`: client_secret_basic; `auth/client-credentials-jwt`: private_key_jwt with a key
 * the suite makes each run) run `toolscope snapshot` as their client (scripts/conformance-cli-client.mjs), at the
 * suite's default protocol version and at 2026-07-28 (an extension scenario there, so forced). Every check must
 * pass: discovery from the 401, the token request with the right client authentication, the bearer on each request.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { NODE22, NODE22_MISSING, runScenario } from "@/playwright/fixtures/conformance-cli";

const COMMAND = "node scripts/conformance-cli-client.mjs";

for (const scenario of ["auth/client-credentials-basic", "auth/client-credentials-jwt"]) {
  for (const version of [null, "2026-07-28"]) {
    test(`${scenario} through toolscope snapshot (protocol ${version ?? "the suite's default"})`, { timeout: 120_000 }, async () => {
      assert.ok(existsSync(NODE22), NODE22_MISSING);
      const run = await runScenario(scenario, version, "http://127.0.0.1:9/unused", { command: COMMAND, force: version !== null });
      assert.deepEqual(run.bad, [], `${run.report}\n${run.clientOutput}`);
      assert.ok(
        run.checks.some((c) => c.status === "SUCCESS" && /client-credentials-(basic-auth|jwt-verified)/.test(c.id)),
        `the token request's client authentication was checked:\n${run.report}`,
      );
      assert.equal(run.code, 0, run.report);
      // The secret and the key never reach the output.
      assert.doesNotMatch(run.clientOutput, /conformance-test-secret|BEGIN PRIVATE KEY/);
    });
  }
}
