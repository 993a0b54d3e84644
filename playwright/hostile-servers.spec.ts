import { startAmplifyingServer, type AmplifyingServer } from "./fixtures/amplifying-server";
import { startApp, type AppInstance } from "./fixtures/app-instance";
import { describeFigures, ISSUE_SHAPE, runListWalkAttack } from "./fixtures/list-walk-attack";
import { expect, test } from "./test";

/**
 * Hostile servers against a hosted instance on a small heap (issue 25): every caller gets an answer or a named limit,
 * the instance stays up and its health probe stays quick. The figures are printed as annotations; the memory bound
 * is asserted from the kernel's peak-RSS count, not timed.
 */
test.describe("hostile servers, hosted, 512 MB heap", () => {
  let server: AmplifyingServer;
  let app: AppInstance;

  test.beforeAll(async () => {
    server = await startAmplifyingServer();
    app = await startApp(
      {
        TOOLSCOPE_MODE: "hosted",
        TOOLSCOPE_EGRESS_ALLOW: `127.0.0.1:${new URL(server.base).port}`,
        NODE_OPTIONS: "--max-old-space-size=512",
      },
      { publicUrlIsSelf: true },
    );
  });
  test.afterAll(async () => {
    await app?.stop();
    await server?.close();
  });

  test("50 pages of 9 MB, four /api/tools and two docs pages at once: named limits within 30 s, up, health quick", async () => {
    test.setTimeout(120_000);
    const figures = await runListWalkAttack(app.url, server, ISSUE_SHAPE, app.pid);
    test.info().annotations.push({ type: "figures", description: describeFigures(figures).join("\n") });
    expect(figures.alive, app.log().slice(-2_000)).toBe(true);
    for (const o of figures.outcomes) {
      expect(o.ms, `${o.what} answered in ${o.ms} ms`).toBeLessThan(30_000);
      // A cut list that says by which limit, or a refusal that names one.
      if (o.status === 200) expect(o.said).toMatch(/TOOLSCOPE_MAX_CALL_UPSTREAM_BYTES|TOOLSCOPE_MAX_DESCRIPTION_CHARS/);
      else expect([413, 503]).toContain(o.status);
      if (o.what === "api/tools" && o.status !== 200) expect(o.said).toMatch(/TOOLSCOPE_[A-Z_]+/);
      expect(o.bytes, "no answer carries the walk whole").toBeLessThan(40_000_000);
    }
    expect(figures.upstreamPages, "the server was not asked for 6 × 50 pages").toBeLessThan(60);
    expect(figures.healthFailures).toBe(0);
    expect(Math.max(...figures.healthMs)).toBeLessThan(2_000);
    if (figures.peakRssMb !== undefined) expect(figures.peakRssMb).toBeLessThan(700);
    // Still serving afterwards.
    const health = await fetch(`${app.url}/api/health`);
    expect(health.status).toBe(200);
  });

  test("an endless list and a dripping one end at a named limit, not at the page cap or never", async () => {
    test.setTimeout(120_000);
    const endless = await runListWalkAttack(app.url, server, { pages: 0, tools: 50, desc: 50_000, apiCalls: 2, docsLoads: 0 }, app.pid);
    for (const o of endless.outcomes) expect(o.said).toMatch(/TOOLSCOPE_MAX_CALL_UPSTREAM_BYTES/);
    const before = server.stats().pages;
    const drip = await runListWalkAttack(
      app.url,
      server,
      { pages: 0, tools: 20, desc: 20_000, apiCalls: 1, docsLoads: 0, dripMs: 200 },
      app.pid,
    );
    test.info().annotations.push({ type: "drip", description: describeFigures(drip).join("\n") });
    // A server that never stops sending, slowly: the request timeout ends it with a named error.
    expect(drip.outcomes[0].status).not.toBe(0);
    expect(drip.outcomes[0].said).toMatch(/TOOLSCOPE_LIST_DEADLINE_MS/);
    expect(drip.outcomes[0].ms).toBeLessThan(30_000);
    expect(server.stats().pages - before).toBeLessThan(10);
  });
});
