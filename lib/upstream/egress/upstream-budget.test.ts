import { test, describe, after, before } from "node:test";
import assert from "node:assert/strict";
import { startAmplifyingServer, type AmplifyingServer } from "../../../playwright/fixtures/amplifying-server.ts";
import { config } from "../../server/platform/config.ts";
import { connect, tools } from "../../server/api/proxy-service.ts";
import { classifyError } from "../errors/proxy-error.ts";
import { ExchangeFailure } from "../exchange/exchange-core.ts";
import { BytePool, UpstreamBudget, UpstreamBudgetError, withUpstreamBudget } from "./upstream-budget.ts";
import { PROXY_ERROR_STATUS } from "@/lib/mcp/contract";

const ORIGIN = "http://localhost:3000";
const MB = 1_000_000;
// Small enough to run fast, large enough that the old code (no budget) walks every page.
process.env.TOOLSCOPE_MAX_CALL_UPSTREAM_BYTES = String(3 * MB);
process.env.TOOLSCOPE_MAX_DESCRIPTION_CHARS = "2000";
process.env.TOOLSCOPE_LIST_DEADLINE_MS = "1500";

let server: AmplifyingServer;
before(async () => {
  server = await startAmplifyingServer();
});
after(() => server.close());

const limits = () => ({ callBytes: config().maxCallUpstreamBytes, poolBytes: 0 });

/** connect + /api/tools for `url`, in one request's budget (as handleApi runs them). */
function listTools(url: string, budget = limits()) {
  return withUpstreamBudget(budget, async () => {
    const ctx = { config: config(), origin: ORIGIN, signal: AbortSignal.timeout(20_000) };
    const { connection } = await connect({ url, era: "auto", headers: {} }, ctx);
    return tools({ connection, headers: {}, fresh: true }, ctx);
  });
}

function proxyErrorOf(err: unknown) {
  return classifyError(err instanceof ExchangeFailure ? err.cause : err, "", 15_000);
}

describe("upstream budget", () => {
  test("a charge past the request's limit throws too-large; the pool gets everything back when the request ends", () => {
    const pool = new BytePool(1_000);
    const a = new UpstreamBudget(600, pool);
    a.charge(500);
    assert.equal(pool.used, 500);
    assert.throws(
      () => a.charge(200),
      (e: unknown) => e instanceof UpstreamBudgetError && e.kind === "too-large" && /TOOLSCOPE_MAX_CALL_UPSTREAM_BYTES/.test(e.message),
    );
    const b = new UpstreamBudget(10_000, pool);
    assert.throws(
      () => b.charge(600),
      (e: unknown) => e instanceof UpstreamBudgetError && e.kind === "unavailable" && e.retryAfterSeconds! > 0,
      "the pool holds 500 of 1,000: 600 more is refused",
    );
    a.close();
    b.close();
    assert.equal(pool.used, 0, "closed budgets give back what they held, the refused charge included");
    b.close();
    assert.equal(pool.used, 0, "closing twice gives back nothing more");
  });

  test("a list walk stops at the request's byte budget: a cut list that says so, and the server is not asked for the rest", async () => {
    // 50 pages of ~1 MB: the old code walked all 50 (50 MB held for one request).
    const list = await listTools(server.endpoint({ pages: 50, tools: 20, desc: 50_000 }));
    const sent = server.stats();
    assert.ok(sent.pages <= 4, `the walk stopped near 3 MB, not after ${sent.pages} pages`);
    assert.ok(sent.bytes < 6 * MB, `bytes the server sent: ${sent.bytes}`);
    assert.ok(list.pages >= 1 && list.pages <= 3, `pages kept: ${list.pages}`);
    assert.ok(
      list.warnings.some((w) => /TOOLSCOPE_MAX_CALL_UPSTREAM_BYTES/.test(w) && /cut/.test(w)),
      `a warning names the limit: ${JSON.stringify(list.warnings)}`,
    );
  });

  test("descriptions longer than TOOLSCOPE_MAX_DESCRIPTION_CHARS are cut as pages arrive, with a marker and a warning", async () => {
    const list = await listTools(server.endpoint({ pages: 2, tools: 5, desc: 30_000 }));
    assert.equal(list.tools.length, 10);
    for (const t of list.tools) {
      assert.ok(t.description!.length < 2_200, `${t.name}: ${t.description!.length} characters`);
      assert.match(t.description!, /TOOLSCOPE_MAX_DESCRIPTION_CHARS is 2000\]$/);
    }
    assert.ok(list.warnings.some((w) => /10 tools have a description or title longer than 2000/.test(w)));
  });

  test("a first page over the budget is a too-large failure (413) that names the setting, read no further than the budget", async () => {
    const before = server.stats().bytes;
    const err = await listTools(server.endpoint({ pages: 1, tools: 200, desc: 50_000 })).then(
      () => assert.fail("a 10 MB page must not fit a 3 MB budget"),
      (e: unknown) => e,
    );
    const failure = proxyErrorOf(err);
    assert.equal(failure.kind, "too-large");
    assert.equal(PROXY_ERROR_STATUS[failure.kind], 413);
    assert.match(failure.message, /TOOLSCOPE_MAX_CALL_UPSTREAM_BYTES/);
    assert.match(failure.hint ?? "", /raise TOOLSCOPE_MAX_CALL_UPSTREAM_BYTES/);
    // The body is cancelled at the budget; what the server wrote past it is what sat in socket buffers.
    assert.ok(server.stats().bytes - before < 8 * MB, `sent ${server.stats().bytes - before} bytes of a 10 MB page`);
  });

  test("an endless list ends at the budget too, not at TOOLSCOPE_MAX_TOOL_PAGES pages", async () => {
    const before = server.stats().pages;
    const list = await listTools(server.endpoint({ pages: 0, tools: 10, desc: 40_000 }));
    assert.ok(server.stats().pages - before <= 10, `pages asked for: ${server.stats().pages - before}`);
    assert.ok(list.warnings.some((w) => /TOOLSCOPE_MAX_CALL_UPSTREAM_BYTES/.test(w)));
  });

  test("a server that drips an endless list is stopped by one deadline for the whole walk, not one per page", async () => {
    const before = server.stats().pages;
    const started = performance.now();
    // Every page takes 300 ms, well inside the per-exchange timeout: the old code walked 50 pages (15 s).
    const list = await listTools(server.endpoint({ pages: 0, tools: 2, desc: 1_000, dripMs: 300 }));
    const ms = performance.now() - started;
    assert.ok(ms < 3_500, `listing ended after ${Math.round(ms)} ms`);
    assert.ok(server.stats().pages - before <= 7, `pages asked for: ${server.stats().pages - before}`);
    assert.ok(
      list.warnings.some((w) => /TOOLSCOPE_LIST_DEADLINE_MS/.test(w)),
      JSON.stringify(list.warnings),
    );
  });

  test("requests at once share the process's pool: the one that finds it full gets 503 unavailable with Retry-After", async () => {
    // A 4 MB pool, budgets of 3 MB each: three walks of 2.4 MB at once cannot all be held.
    const budget = { callBytes: 3 * MB, poolBytes: 4 * MB };
    // Dripped, so the three are in flight together.
    const url = server.endpoint({ pages: 2, tools: 20, desc: 60_000, dripMs: 5 });
    const settled = await Promise.allSettled([listTools(url, budget), listTools(url, budget), listTools(url, budget)]);
    const refused = settled.filter((s) => s.status === "rejected").map((s) => proxyErrorOf((s as PromiseRejectedResult).reason));
    assert.ok(refused.length >= 1, "at least one walk was refused");
    for (const r of refused) {
      assert.equal(r.kind, "unavailable", r.message);
      assert.equal(PROXY_ERROR_STATUS[r.kind], 503);
      assert.ok(r.retryAfterSeconds! > 0);
      assert.match(r.message, /TOOLSCOPE_MAX_INFLIGHT_UPSTREAM_BYTES/);
    }
    assert.ok(
      settled.some((s) => s.status === "fulfilled"),
      "the pool still serves whoever fits",
    );
    // Everything was given back: the same three, one after another, all succeed.
    for (let i = 0; i < 3; i++) await listTools(url, budget);
  });
});
