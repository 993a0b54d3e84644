import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import net from "node:net";
import { listenAll, listenerCount, reusePortSupported } from "./listeners.mjs";
import { NODE22_PATH } from "./test-tools.mjs";

/** A Node with reusePort (22.12+): test-tools/ ships Node 22 (the conformance CLI uses it too). */
const NODE_22 = NODE22_PATH;

/**
 * In a child on Node 22: an http server behind `count` listening sockets whose event loop is blocked while 100
 * connections complete their handshakes in the kernel; then how many turns of its loop it took to accept them all,
 * and the most taken in one turn.
 */
async function acceptBacklog(count: number): Promise<{ turns: number; maxPerTurn: number }> {
  const code = `
    import http from "node:http";
    import { listenAll } from ${JSON.stringify(new URL("./listeners.mjs", import.meta.url).href)};
    const server = http.createServer((req, res) => res.end("ok"));
    let turn = 0;
    const perTurn = new Map();
    server.on("connection", () => {
      perTurn.set(turn, (perTurn.get(turn) ?? 0) + 1);
      const total = [...perTurn.values()].reduce((a, b) => a + b, 0);
      if (total === 100) {
        console.log(JSON.stringify({ turns: perTurn.size, maxPerTurn: Math.max(...perTurn.values()) }));
        process.exit(0);
      }
    });
    const l = await listenAll(server, { port: 0, host: "127.0.0.1", count: ${count} });
    console.log(JSON.stringify({ port: l.port }));
    process.stdin.once("data", () => {
      const end = performance.now() + 1500;
      while (performance.now() < end);
      const spin = () => { turn++; setImmediate(spin); };
      spin();
    });`;
  const child = spawn(NODE_22, ["--input-type=module", "-e", code], { stdio: ["pipe", "pipe", "inherit"] });
  const lines: string[] = [];
  let partial = "";
  const nextLine = () =>
    new Promise<string>((resolve) => {
      const check = () => (lines.length ? resolve(lines.shift()!) : setTimeout(check, 10));
      check();
    });
  child.stdout.on("data", (b: Buffer) => {
    partial += b.toString();
    const parts = partial.split("\n");
    partial = parts.pop()!;
    lines.push(...parts.filter(Boolean));
  });
  const { port } = JSON.parse(await nextLine());
  child.stdin.write("block\n");
  await new Promise((r) => setTimeout(r, 200));
  // The handshakes complete in the kernel while the child's loop is blocked: 100 connections wait to be accepted.
  const sockets = await Promise.all(
    Array.from(
      { length: 100 },
      () =>
        new Promise<net.Socket>((resolve) => {
          const s = net.connect(port, "127.0.0.1", () => resolve(s));
        }),
    ),
  );
  const result = JSON.parse(await nextLine());
  for (const s of sockets) s.destroy();
  child.kill();
  return result;
}

describe("listening sockets (TOOLSCOPE_LISTENERS)", () => {
  test("reusePort is there from Node 22.12 and 23.1", () => {
    assert.equal(reusePortSupported("20.20.2"), false);
    assert.equal(reusePortSupported("22.11.0"), false);
    assert.equal(reusePortSupported("22.12.0"), true);
    assert.equal(reusePortSupported("23.0.0"), false);
    assert.equal(reusePortSupported("23.1.0"), true);
    assert.equal(reusePortSupported("24.0.0"), true);
  });

  test("the count: 8 where supported, 1 elsewhere; more than 1 on an old Node is an error naming the setting", () => {
    assert.equal(listenerCount({}, "24.11.0"), 8);
    assert.equal(listenerCount({}, "20.20.2"), 1);
    assert.equal(listenerCount({ TOOLSCOPE_LISTENERS: "3" }, "22.12.0"), 3);
    assert.equal(listenerCount({ TOOLSCOPE_LISTENERS: "1" }, "20.20.2"), 1);
    assert.throws(
      () => listenerCount({ TOOLSCOPE_LISTENERS: "4" }, "20.20.2"),
      /TOOLSCOPE_LISTENERS=4 needs Node 22\.12 or later.*Node 20\.20\.2/,
    );
    assert.throws(() => listenerCount({ TOOLSCOPE_LISTENERS: "0" }, "24.0.0"), /TOOLSCOPE_LISTENERS=0 is invalid/);
  });

  test("one socket: an http server answers on it, and close() stops new connections", async () => {
    const { createServer } = await import("node:http");
    const server = createServer((req, res) => res.end("ok"));
    const l = await listenAll(server, { port: 0, host: "127.0.0.1", count: 1 });
    assert.equal(await (await fetch(`http://127.0.0.1:${l.port}/`)).text(), "ok");
    l.close();
    await assert.rejects(fetch(`http://127.0.0.1:${l.port}/`));
    server.closeAllConnections();
  });

  test(
    "a backlog of connections on a blocked loop: one socket takes one per turn, eight take several per turn",
    { skip: !existsSync(NODE_22) && `${NODE_22} is missing (node scripts/ensure-test-tools.mjs)` },
    async () => {
      const one = await acceptBacklog(1);
      assert.equal(one.maxPerTurn, 1, "Node takes one connection per turn from a listening socket");
      assert.ok(one.turns >= 90, `one socket: ${one.turns} turns for 100 connections`);
      const eight = await acceptBacklog(8);
      assert.ok(eight.maxPerTurn >= 4, `eight sockets: up to ${eight.maxPerTurn} in a turn`);
      assert.ok(eight.turns <= one.turns / 3, `eight sockets: ${eight.turns} turns for 100 connections (one socket: ${one.turns})`);
    },
  );

  test(
    "every connection, whichever of the eight sockets took it, goes without Nagle's algorithm",
    { skip: !existsSync(NODE_22) && `${NODE_22} is missing (node scripts/ensure-test-tools.mjs)` },
    async () => {
      // In a child on Node 22: count the connections and the setNoDelay(true) calls made on them.
      const code = `
        import http from "node:http";
        import net from "node:net";
        import { listenAll } from ${JSON.stringify(new URL("./listeners.mjs", import.meta.url).href)};
        const set = net.Socket.prototype.setNoDelay;
        const without = new WeakSet();
        net.Socket.prototype.setNoDelay = function (on = true) { if (on) without.add(this); return set.call(this, on); };
        let connections = 0, nagleOff = 0;
        const server = http.createServer((req, res) => {
          if (without.has(req.socket)) nagleOff++;
          res.end("ok");
        });
        server.on("connection", () => connections++);
        const l = await listenAll(server, { port: 0, host: "127.0.0.1", count: 8 });
        const agent = new http.Agent({ keepAlive: false });
        await Promise.all(Array.from({ length: 64 }, () => new Promise((resolve) =>
          http.get({ host: "127.0.0.1", port: l.port, agent }, (res) => res.resume().on("end", resolve)))));
        console.log(JSON.stringify({ connections, nagleOff }));
        process.exit(0);`;
      const child = spawn(NODE_22, ["--input-type=module", "-e", code], { stdio: ["ignore", "pipe", "inherit"] });
      let out = "";
      child.stdout.on("data", (b: Buffer) => (out += b));
      await new Promise((r) => child.once("exit", r));
      const { connections, nagleOff } = JSON.parse(out.trim());
      assert.equal(connections, 64);
      assert.equal(nagleOff, 64, "a request on a connection that still used Nagle's algorithm");
    },
  );
});
