import { after, describe, test, type TestContext } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { closeSharedRedis, firstConnect, newRedis, REDIS_KEY_PREFIX } from "../platform/redis.ts";
import { RpcControlBus } from "./rpc-control.ts";
import { servicesForTests } from "../../../scripts/test-services.mjs";

// A throwaway Redis (scripts/test-services.mjs); when it cannot be had, these tests skip saying why.
const services = await servicesForTests({ redis: true });
const buses: RpcControlBus[] = [];
// Toolscope's Redis sockets are unref'd (newRedis: a connection must not keep a process alive), so a test that only
// waits for Redis would let the event loop run empty: under the CLI (REDIS_URL given, no redis-server child of this
// process) node:test then cancels it. This timer keeps the file's process alive until it is done.
const keepAlive = setInterval(() => undefined, 60_000);
after(async () => {
  clearInterval(keepAlive);
  await Promise.all(buses.map((b) => b.close()));
  await closeSharedRedis();
  await services.stop();
});
const skip = services.redisUrl ? undefined : `Redis unavailable: ${services.unavailable.redis}`;
const withRedis = (name: string, fn: (t: TestContext) => void | Promise<void>) => test(name, { skip }, fn);

type Delivered = Parameters<ConstructorParameters<typeof RpcControlBus>[1]>[0];

/** An instance's bus, with what it was handed. */
function instance(): { bus: RpcControlBus; delivered: Delivered[]; next: () => Promise<Delivered> } {
  const delivered: Delivered[] = [];
  const waiters: ((m: Delivered) => void)[] = [];
  const bus = new RpcControlBus(services.redisUrl!, (m) => {
    delivered.push(m);
    waiters.shift()?.(m);
  });
  buses.push(bus);
  const next = () =>
    new Promise<Delivered>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("nothing delivered within 3 s")), 3_000);
      waiters.push((m) => {
        clearTimeout(timer);
        resolve(m);
      });
    });
  return { bus, delivered, next };
}

const answer = (streamId: string) => ({
  kind: "answer" as const,
  streamId,
  pendingId: randomUUID(),
  response: { result: { action: "accept", content: { name: "Ada" } } },
});

describe("RpcControlBus (two instances on one Redis)", () => {
  withRedis("an answer given to B for a stream A holds reaches A's deliver, exactly as sent; B's own deliver gets nothing", async () => {
    const a = instance();
    const b = instance();
    assert.notEqual(a.bus.instanceId, b.bus.instanceId);
    await Promise.all([a.bus.start(), b.bus.start()]);
    const streamId = randomUUID();
    await a.bus.claim(streamId, 60_000);
    const message = answer(streamId);
    const arrived = a.next();
    assert.equal(await b.bus.relay(message), true, "relayed to the owner");
    assert.deepEqual(await arrived, message);
    assert.equal(b.delivered.length, 0);
    // A cancel takes the same way.
    const cancelled = a.next();
    assert.equal(await b.bus.relay({ kind: "cancel", streamId }), true);
    assert.deepEqual(await cancelled, { kind: "cancel", streamId });
    await a.bus.release(streamId);
  });

  withRedis("relay for a stream nobody claimed returns false, and the holder itself is not sent its own message", async () => {
    const a = instance();
    const b = instance();
    await Promise.all([a.bus.start(), b.bus.start()]);
    assert.equal(await b.bus.relay(answer(randomUUID())), false, "unknown stream");
    const streamId = randomUUID();
    await a.bus.claim(streamId, 60_000);
    assert.equal(await a.bus.relay(answer(streamId)), false, "the owner handles its own streams locally");
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(a.delivered.length + b.delivered.length, 0);
    await a.bus.release(streamId);
  });

  withRedis(
    "a claim is stored under its prefixed key with the TTL asked for; release removes it, and relay then returns false",
    async () => {
      const a = instance();
      const b = instance();
      await Promise.all([a.bus.start(), b.bus.start()]);
      const streamId = randomUUID();
      await a.bus.claim(streamId, 30_000);
      const redis = newRedis(services.redisUrl!);
      try {
        await firstConnect(redis);
        const key = `${REDIS_KEY_PREFIX}rpc-stream:${streamId}`;
        assert.equal(await redis.get(key), a.bus.instanceId);
        const ttl = await redis.pttl(key);
        assert.ok(ttl > 0 && ttl <= 30_000, `ttl ${ttl}`);
        await a.bus.release(streamId);
        assert.equal(await redis.get(key), null);
      } finally {
        redis.disconnect();
      }
      assert.equal(await b.bus.relay(answer(streamId)), false);
      assert.equal(a.delivered.length, 0);
    },
  );

  withRedis(
    "close() unsubscribes: a relay to a closed instance reaches no one (false) and delivers nothing; start() after close listens again",
    async () => {
      const a = instance();
      const b = instance();
      await Promise.all([a.bus.start(), b.bus.start()]);
      const streamId = randomUUID();
      await a.bus.claim(streamId, 60_000);
      await a.bus.close();
      assert.equal(await b.bus.relay(answer(streamId)), false, "no subscriber on A's channel any more");
      await new Promise((r) => setTimeout(r, 100));
      assert.equal(a.delivered.length, 0);
      await a.bus.close(); // twice is harmless

      await a.bus.start();
      const arrived = a.next();
      assert.equal(await b.bus.relay(answer(streamId)), true);
      assert.equal((await arrived).streamId, streamId);
      await a.bus.release(streamId);
    },
  );

  withRedis("a message the deliver callback throws on does not stop the next one", async () => {
    let calls = 0;
    const got: Delivered[] = [];
    const a = new RpcControlBus(services.redisUrl!, (m) => {
      calls++;
      if (calls === 1) throw new Error("not waiting");
      got.push(m);
    });
    buses.push(a);
    const b = instance();
    await Promise.all([a.start(), b.bus.start()]);
    const streamId = randomUUID();
    await a.claim(streamId, 60_000);
    assert.equal(await b.bus.relay(answer(streamId)), true);
    const second = answer(streamId);
    assert.equal(await b.bus.relay(second), true);
    const end = Date.now() + 3_000;
    while (got.length === 0 && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
    assert.deepEqual(got, [second]);
    await a.release(streamId);
  });
});
