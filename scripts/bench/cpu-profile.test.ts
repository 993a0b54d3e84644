import assert from "node:assert/strict";
import { test } from "node:test";
import { frameKey, origin, selfTimeBetween, type CpuProfile } from "./cpu-profile.ts";

const frame = (id: number, functionName: string, url: string) => ({ id, callFrame: { functionName, url, lineNumber: 0 } });

/** Samples at 1,010 / 1,030 / 1,060 / 1,100 µs: idle, run, run, then the garbage collector. */
const profile: CpuProfile = {
  startTime: 1_000,
  nodes: [frame(1, "(idle)", ""), frame(2, "run", "file:///app/node_modules/undici/lib/x.js"), frame(3, "(garbage collector)", "")],
  samples: [1, 2, 2, 3],
  timeDeltas: [10, 20, 30, 40],
};

test("self time adds up each function's sample intervals, named by function and origin", () => {
  assert.deepEqual(
    [...selfTimeBetween(profile)],
    [
      ["(idle)  (native):1", 10],
      ["run  undici:1", 50],
      ["(garbage collector)  (native):1", 40],
    ],
  );
});

test("only samples taken within the window count (the timed calls, not start-up)", () => {
  assert.deepEqual([...selfTimeBetween(profile, 1_020, 1_060)], [["run  undici:1", 50]]);
  assert.equal(selfTimeBetween(profile, 2_000, 3_000).size, 0);
});

test("origins name a package, Node itself or the build's chunks", () => {
  assert.equal(origin("node:internal/streams/writable"), "node:internal");
  assert.equal(origin("file:///a/node_modules/@modelcontextprotocol/client/dist/index.mjs"), "@modelcontextprotocol/client");
  assert.equal(origin("file:///a/.next/server/chunks/x.js"), "next server chunks (app code + bundled deps)");
  assert.equal(frameKey(frame(9, "", "")), "(anonymous)  (native):1");
});
