import { test } from "node:test";
import assert from "node:assert/strict";
import { Admission, AdmissionError, admitted } from "./admission.ts";
import { RATE_CLASSES, type RateClass } from "../platform/config.ts";
import { ProxyError } from "../../upstream/errors/proxy-error.ts";

function maxes(extra: Partial<Record<RateClass, number>>): Record<RateClass, number> {
  return { ...(Object.fromEntries(RATE_CLASSES.map((c) => [c, 100])) as Record<RateClass, number>), ...extra };
}

function refusal(fn: () => unknown): AdmissionError {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof AdmissionError, `expected an AdmissionError, got ${String(err)}`);
    return err;
  }
  assert.fail("expected a refusal");
}

test("admits up to the class's bound, then refuses at once with a 503 that names the setting", () => {
  const a = new Admission(maxes({ tools: 2 }));
  a.admit("tools");
  a.admit("tools");
  const err = refusal(() => a.admit("tools"));
  assert.ok(err instanceof ProxyError);
  assert.equal(err.kind, "unavailable");
  assert.equal(err.retryAfterSeconds, 2);
  assert.equal(
    err.message,
    "This Toolscope instance is working on 2 tool list requests already, the most it takes at once (TOOLSCOPE_MAX_INFLIGHT_TOOLS).",
  );
  assert.match(err.hint ?? "", /raise TOOLSCOPE_MAX_INFLIGHT_TOOLS/);
  // One class full leaves the others their room.
  a.admit("rpc");
  assert.equal(a.inFlight("tools"), 2);
  assert.equal(a.inFlight("rpc"), 1);
});

test("letting a request out is idempotent and makes room for one more", () => {
  const a = new Admission(maxes({ oauth: 1 }));
  const leave = a.admit("oauth");
  refusal(() => a.admit("oauth"));
  leave();
  leave();
  assert.equal(a.inFlight("oauth"), 0);
  a.admit("oauth");
  refusal(() => a.admit("oauth"));
});

test("admitted() answers a full class 503 with Retry-After, and lets a failed run out", async () => {
  const cfg = { maxInflight: maxes({ icons: 1 }) };
  // admitted() uses the process's admission: hold its one icons slot from inside a run.
  let release!: () => void;
  const held = admitted(cfg, "icons", () => new Promise<Response>((resolve) => (release = () => resolve(new Response("icon")))));
  const refused = await admitted(cfg, "icons", async () => new Response("never"));
  assert.equal(refused.status, 503);
  assert.equal(refused.headers.get("retry-after"), "2");
  const body = (await refused.json()) as { error: { kind: string; message: string } };
  assert.equal(body.error.kind, "unavailable");
  assert.match(body.error.message, /\(TOOLSCOPE_MAX_INFLIGHT_ICONS\)/);
  release();
  assert.equal(await (await held).text(), "icon");
  await assert.rejects(
    admitted(cfg, "icons", async () => {
      throw new Error("boom");
    }),
    /boom/,
  );
  assert.equal((await admitted(cfg, "icons", async () => new Response("ok"))).status, 200);
});
