/**
 * The request guard's rate classes and admission, through guardRequest itself (what proxy.ts runs before every
 * route): a hosted instance with the in-memory rate store and small limits, so a few requests reach each limit.
 */
import { test } from "node:test";
import assert from "node:assert/strict";

process.env.TOOLSCOPE_MODE = "hosted";
process.env.TOOLSCOPE_PUBLIC_URL = "https://toolscope.test";
process.env.TOOLSCOPE_RATE_OAUTH_PER_MIN = "3";
process.env.TOOLSCOPE_RATE_RPC_PER_MIN = "2";
process.env.TOOLSCOPE_RATE_CONTROL_PER_MIN = "6";
process.env.TOOLSCOPE_MAX_INFLIGHT_DOCS = "1";
delete process.env.REDIS_URL;

const { NextRequest } = await import("next/server");
const { guardRequest } = await import("./request-guard.ts");
const { config, RATE_CLASSES } = await import("../platform/config.ts");
const { admission } = await import("./admission.ts");

let peer = 0;
/** A same-origin API call from its own client address (each test counts from zero). */
function apiCall(path: string, client: string): InstanceType<typeof NextRequest> {
  return new NextRequest(`https://toolscope.test${path}`, {
    method: "POST",
    headers: {
      host: "toolscope.test",
      origin: "https://toolscope.test",
      "sec-fetch-site": "same-origin",
      "content-type": "application/json",
      "x-toolscope-peer": client,
    },
    body: "{}",
  });
}

async function statuses(path: string, client: string, n: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push((await guardRequest(apiCall(path, client))).status);
  return out;
}

test("sign-in steps and sign-outs count in the oauth class: past TOOLSCOPE_RATE_OAUTH_PER_MIN, 429 naming it", async () => {
  const client = `198.51.100.${++peer}`;
  assert.deepEqual(await statuses("/api/oauth/authorize", client, 2), [200, 200]);
  assert.deepEqual(await statuses("/api/oauth/revoke", client, 1), [200]);
  const refused = await guardRequest(apiCall("/api/oauth/authorize", client));
  assert.equal(refused.status, 429);
  assert.ok(Number(refused.headers.get("retry-after")) >= 1);
  const body = (await refused.json()) as { error: { kind: string; message: string } };
  assert.equal(body.error.kind, "rate-limited");
  assert.match(body.error.message, /TOOLSCOPE_RATE_OAUTH_PER_MIN/);
  assert.equal((await guardRequest(apiCall("/api/oauth/revoke", client))).status, 429);
  // Another client has its own count.
  assert.equal((await guardRequest(apiCall("/api/oauth/authorize", `198.51.100.${++peer}`))).status, 200);
});

test("answers and cancels count in the control class, apart from the rpc rate a streamed call already used", async () => {
  const client = `198.51.100.${++peer}`;
  assert.deepEqual(await statuses("/api/rpc", client, 3), [200, 200, 429]);
  // The playground answers a server's requests while its rpc rate is used up: that must still work.
  assert.deepEqual(await statuses("/api/rpc/answer", client, 4), [200, 200, 200, 200]);
  assert.deepEqual(await statuses("/api/rpc/cancel", client, 3), [200, 200, 429]);
  const body = (await (await guardRequest(apiCall("/api/rpc/answer", client))).json()) as { error: { message: string } };
  assert.match(body.error.message, /TOOLSCOPE_RATE_CONTROL_PER_MIN/);
});

test("a docs page of a live server past TOOLSCOPE_MAX_INFLIGHT_DOCS is answered 503 with Retry-After at once", async () => {
  const leave = admission(config()).admit("docs");
  try {
    const started = performance.now();
    const res = await guardRequest(
      new NextRequest("https://toolscope.test/docs?server=https%3A%2F%2Fmcp.example.com%2Fmcp", {
        headers: { host: "toolscope.test", "sec-fetch-site": "none", "sec-fetch-dest": "document", "x-toolscope-peer": "198.51.100.200" },
      }),
    );
    assert.ok(performance.now() - started < 1_000, "refused without contacting the server");
    assert.equal(res.status, 503);
    assert.equal(res.headers.get("retry-after"), "2");
    const body = (await res.json()) as { error: { kind: string; message: string; hint: string } };
    assert.equal(body.error.kind, "unavailable");
    assert.match(body.error.message, /TOOLSCOPE_MAX_INFLIGHT_DOCS/);
    assert.match(body.error.hint, /Try again in 2 s/);
  } finally {
    leave();
  }
});

test("health checks pass the guard while every class is full", async () => {
  const leaves = RATE_CLASSES.flatMap((c) => Array.from({ length: config().maxInflight[c] }, () => admission(config()).admit(c)));
  try {
    for (const path of ["/api/health", "/api/health?ready=1"]) {
      const res = await guardRequest(new NextRequest(`https://toolscope.test${path}`, { headers: { host: "10.0.0.7:3000" } }));
      assert.equal(res.headers.get("x-middleware-next"), "1", `${path} goes through to its route`);
    }
  } finally {
    for (const leave of leaves) leave();
  }
});
