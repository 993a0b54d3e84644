import assert from "node:assert/strict";
import { test } from "node:test";
import { SingleFlight } from "./single-flight.ts";

test("concurrent callers of one key share one run; other keys run on their own", async () => {
  const flights = new SingleFlight<number>();
  let runs = 0;
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const start = async () => {
    runs++;
    await gate;
    return runs;
  };
  const a = flights.run("a", start);
  const b = flights.run("a", start);
  const c = flights.run("c", start);
  assert.equal(flights.size, 2);
  release();
  assert.deepEqual(await Promise.all([a, b, c]), [2, 2, 2]);
  assert.equal(runs, 2);
  assert.equal(flights.size, 0);
});

test("a failed run fails everyone waiting on it, and the next call starts afresh", async () => {
  const flights = new SingleFlight<string>();
  let calls = 0;
  const failing = () => {
    calls++;
    return Promise.reject(new Error("upstream down"));
  };
  const results = await Promise.allSettled([flights.run("k", failing), flights.run("k", failing)]);
  assert.deepEqual(
    results.map((r) => r.status),
    ["rejected", "rejected"],
  );
  assert.equal(calls, 1);
  assert.equal(await flights.run("k", async () => "again"), "again");
});
