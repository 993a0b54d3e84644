import { test } from "node:test";
import assert from "node:assert/strict";
import { withFallback } from "./idb.ts";

interface Counter {
  add(n: number): Promise<number>;
}

function counter(): Counter & { total: number } {
  const c = {
    total: 0,
    async add(n: number) {
      c.total += n;
      return c.total;
    },
  };
  return c;
}

test("withFallback uses the primary until a call fails, then the fallback for good", async () => {
  let failing = false;
  const primary = counter();
  const flaky: Counter = { add: (n) => (failing ? Promise.reject(new Error("blocked")) : primary.add(n)) };
  const memory = counter();
  const store = withFallback(flaky, memory);
  assert.equal(await store.add(2), 2);
  failing = true;
  assert.equal(await store.add(3), 3, "the failed call is retried on the fallback");
  failing = false;
  assert.equal(await store.add(4), 7, "and the fallback stays in use");
  assert.equal(primary.total, 2);
  assert.equal((store as unknown as { then?: unknown }).then, undefined, "not a thenable");
});
