import { test } from "node:test";
import assert from "node:assert/strict";
import {
  COLLECTION_STORAGE_KEY,
  forgetCollection,
  loadCollection,
  MAX_STORED_COLLECTION_BYTES,
  MAX_STORED_COLLECTIONS,
  MAX_STORED_COLLECTIONS_BYTES,
  saveCollection,
} from "./collection-store.ts";
import { writeCollection, type Collection } from "../index.ts";
import { exampleCollection } from "../testing/example-collection.ts";
import { MemoryStorage } from "../../playground/testing/memory-storage.ts";

const SERVER = "https://mcp.example.com/mcp";

/** A fresh storage, as the stores take it, and its items for inspection. */
function storage(): { s: Storage; mem: MemoryStorage } {
  const mem = new MemoryStorage();
  return { s: mem as unknown as Storage, mem };
}

/** parseCollection builds null-prototype objects: compare as plain data. */
const plain = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

/** What is stored under the key, parsed. */
function stored(mem: MemoryStorage): Record<string, { text: string; at: number }> {
  const raw = mem.getItem(COLLECTION_STORAGE_KEY);
  assert.ok(raw !== null, "something is stored");
  return JSON.parse(raw) as Record<string, { text: string; at: number }>;
}

const small = (name: string): Collection => ({
  format: "toolscope.collection/1",
  name,
  calls: [{ name: "list tools", request: { method: "tools/list" }, expect: [{ kind: "no-error" }] }],
});

test("the store is one item, under the key earlier versions wrote: what they kept is read, and saved beside", () => {
  const { s, mem } = storage();
  const before = { [SERVER]: { text: writeCollection(small("kept earlier")), at: 1 } };
  // The literal key: renaming it would lose every collection browsers keep.
  mem.setItem("toolscope.collections.v1", JSON.stringify(before));
  assert.equal(loadCollection(s, SERVER)?.name, "kept earlier");
  assert.deepEqual(saveCollection(s, "builtin:demo", small("demo"), 2), { ok: true, evicted: [] });
  assert.deepEqual([...mem.items.keys()], ["toolscope.collections.v1"]);
  assert.deepEqual(JSON.parse(mem.getItem("toolscope.collections.v1") ?? "null"), {
    ...before,
    "builtin:demo": { text: writeCollection(small("demo")), at: 2 },
  });
});

test("save then load: the same collection, stored as the file text with the time", () => {
  const { s, mem } = storage();
  const c = exampleCollection();
  assert.deepEqual(saveCollection(s, SERVER, c, 1_700_000_000_000), { ok: true, evicted: [] });
  assert.deepEqual(plain(loadCollection(s, SERVER)), plain(c));
  assert.deepEqual(stored(mem), { [SERVER]: { text: writeCollection(c), at: 1_700_000_000_000 } });
});

test("collections are kept per server; a second save replaces the first", () => {
  const { s } = storage();
  saveCollection(s, SERVER, small("first"), 1);
  saveCollection(s, "builtin:demo", small("demo"), 2);
  saveCollection(s, SERVER, small("second"), 3);
  assert.equal(loadCollection(s, SERVER)?.name, "second");
  assert.equal(loadCollection(s, "builtin:demo")?.name, "demo");
  assert.equal(loadCollection(s, "https://other.example.com/mcp"), undefined);
});

test("load: nothing stored, or storage that is not the store's JSON, gives undefined", () => {
  const { s, mem } = storage();
  assert.equal(loadCollection(s, SERVER), undefined);
  for (const raw of ["{not json", "[]", "null", '"text"', "42", ""]) {
    mem.setItem(COLLECTION_STORAGE_KEY, raw);
    assert.equal(loadCollection(s, SERVER), undefined, raw);
  }
});

test("load: a stored text that no longer parses as a collection is ignored", () => {
  const { s, mem } = storage();
  saveCollection(s, SERVER, exampleCollection(), 5);
  saveCollection(s, "builtin:demo", small("demo"), 6);
  const all = stored(mem);
  const cases = [
    all[SERVER].text.slice(0, 200), // truncated
    JSON.stringify({ format: "toolscope.collection/2", name: "future", calls: [] }),
    JSON.stringify({ format: "toolscope.collection/1", name: "bad", calls: [{ name: "x", request: {}, expect: [] }] }),
    "",
  ];
  for (const text of cases) {
    mem.setItem(COLLECTION_STORAGE_KEY, JSON.stringify({ ...all, [SERVER]: { text, at: 5 } }));
    assert.equal(loadCollection(s, SERVER), undefined, text.slice(0, 60));
    assert.equal(loadCollection(s, "builtin:demo")?.name, "demo", "the other server's collection still loads");
  }
  for (const entry of [null, 1, "text", { at: 5 }, { text: 42, at: 5 }]) {
    mem.setItem(COLLECTION_STORAGE_KEY, JSON.stringify({ [SERVER]: entry }));
    assert.equal(loadCollection(s, SERVER), undefined, JSON.stringify(entry));
  }
});

test("save: a collection over MAX_STORED_COLLECTION_BYTES is refused, with its size, and nothing is stored", () => {
  const { s, mem } = storage();
  const big = small("big");
  big.description = "x".repeat(MAX_STORED_COLLECTION_BYTES);
  const size = writeCollection(big).length;
  assert.ok(size > MAX_STORED_COLLECTION_BYTES);
  assert.deepEqual(saveCollection(s, SERVER, big, 1), {
    ok: false,
    error: `The collection is ${Math.ceil(size / 1024)} KB, over the 512 KB this browser keeps: Export it to keep it.`,
  });
  assert.equal(Math.ceil(size / 1024), 513);
  assert.equal(mem.getItem(COLLECTION_STORAGE_KEY), null);
});

test("save: a collection of exactly MAX_STORED_COLLECTION_BYTES is kept; one more unit is not", () => {
  const { s } = storage();
  const base = small("edge");
  base.description = "";
  const overhead = writeCollection(base).length;
  const exact = { ...base, description: "y".repeat(MAX_STORED_COLLECTION_BYTES - overhead) };
  assert.equal(writeCollection(exact).length, MAX_STORED_COLLECTION_BYTES);
  assert.deepEqual(saveCollection(s, SERVER, exact, 1), { ok: true, evicted: [] });
  assert.equal(loadCollection(s, SERVER)?.description?.length, MAX_STORED_COLLECTION_BYTES - overhead);
  const over = { ...base, description: "y".repeat(MAX_STORED_COLLECTION_BYTES - overhead + 1) };
  const refused = saveCollection(s, SERVER, over, 2);
  assert.equal(refused.ok, false);
  assert.equal(!refused.ok && refused.error, "The collection is 513 KB, over the 512 KB this browser keeps: Export it to keep it.");
  assert.equal(loadCollection(s, SERVER)?.description?.length, MAX_STORED_COLLECTION_BYTES - overhead, "the kept one stays");
});

test("save: a refused large collection leaves the one already kept", () => {
  const { s } = storage();
  saveCollection(s, SERVER, small("kept"), 1);
  const big = { ...small("big"), description: "z".repeat(MAX_STORED_COLLECTION_BYTES + 10) };
  assert.equal(saveCollection(s, SERVER, big, 2).ok, false);
  assert.equal(loadCollection(s, SERVER)?.name, "kept");
});

test("save: more than MAX_STORED_COLLECTIONS servers keeps the most recently saved ones", () => {
  const { s, mem } = storage();
  const server = (i: number) => `https://mcp${i}.example.com/mcp`;
  const order = [...Array(MAX_STORED_COLLECTIONS + 5).keys()];
  // Each save past the 20th drops the least recently saved other, and names it.
  for (const i of order)
    assert.deepEqual(saveCollection(s, server(i), small(`c${i}`), 1000 + i), {
      ok: true,
      evicted: i < MAX_STORED_COLLECTIONS ? [] : [server(i - MAX_STORED_COLLECTIONS)],
    });
  const kept = Object.keys(stored(mem)).sort();
  const expected = [...Array(MAX_STORED_COLLECTIONS).keys()].map((i) => server(i + 5)).sort();
  assert.deepEqual(kept, expected);
  for (let i = 0; i < 5; i++) assert.equal(loadCollection(s, server(i)), undefined, server(i));
  assert.equal(loadCollection(s, server(24))?.name, "c24");
  assert.equal(loadCollection(s, server(5))?.name, "c5");

  // Saving an old one again makes it the newest: the least recently saved (5) goes.
  assert.deepEqual(saveCollection(s, server(0), small("c0 again"), 5000), { ok: true, evicted: [server(5)] });
  assert.equal(Object.keys(stored(mem)).length, MAX_STORED_COLLECTIONS);
  assert.equal(loadCollection(s, server(0))?.name, "c0 again");
  assert.equal(loadCollection(s, server(5)), undefined);
  assert.equal(loadCollection(s, server(6))?.name, "c6");
});

test("save: exactly MAX_STORED_COLLECTIONS servers are all kept", () => {
  const { s, mem } = storage();
  for (let i = 0; i < MAX_STORED_COLLECTIONS; i++) saveCollection(s, `server-${i}`, small(`c${i}`), i);
  assert.equal(Object.keys(stored(mem)).length, MAX_STORED_COLLECTIONS);
  assert.equal(loadCollection(s, "server-0")?.name, "c0");
});

test("save: a storage whose setItem throws gives the storage-full error", () => {
  const mem = new MemoryStorage();
  mem.setItem(COLLECTION_STORAGE_KEY, JSON.stringify({}));
  const full = Object.assign(mem, {
    setItem() {
      throw new DOMException("The quota has been exceeded.", "QuotaExceededError");
    },
  });
  assert.deepEqual(saveCollection(full as unknown as Storage, SERVER, exampleCollection(), 1), {
    ok: false,
    error: "This browser's storage is full: the collection was not kept. Export it to keep it.",
  });
  assert.equal(loadCollection(full as unknown as Storage, SERVER), undefined);
});

test("save: corrupted stored JSON is replaced by a fresh store", () => {
  const { s, mem } = storage();
  mem.setItem(COLLECTION_STORAGE_KEY, "{corrupt");
  assert.deepEqual(saveCollection(s, SERVER, small("fresh"), 9), { ok: true, evicted: [] });
  assert.deepEqual(Object.keys(stored(mem)), [SERVER]);
  assert.equal(loadCollection(s, SERVER)?.name, "fresh");
});

test("forgetCollection: only that server's collection goes", () => {
  const { s, mem } = storage();
  saveCollection(s, SERVER, small("mine"), 1);
  saveCollection(s, "builtin:demo", small("demo"), 2);
  forgetCollection(s, SERVER);
  assert.equal(loadCollection(s, SERVER), undefined);
  assert.equal(loadCollection(s, "builtin:demo")?.name, "demo");
  assert.deepEqual(Object.keys(stored(mem)), ["builtin:demo"]);
});

test("forgetCollection: a server with nothing kept writes nothing", () => {
  const { s, mem } = storage();
  forgetCollection(s, SERVER);
  assert.equal(mem.getItem(COLLECTION_STORAGE_KEY), null);
  saveCollection(s, "builtin:demo", small("demo"), 2);
  const before = mem.getItem(COLLECTION_STORAGE_KEY);
  let writes = 0;
  const counting = Object.assign(mem, {
    setItem(k: string, v: string) {
      writes++;
      mem.items.set(k, v);
    },
  });
  forgetCollection(counting as unknown as Storage, SERVER);
  assert.equal(writes, 0);
  assert.equal(mem.getItem(COLLECTION_STORAGE_KEY), before);
});

test("save: a malformed entry of another server does not stop a save", () => {
  const { s, mem } = storage();
  mem.setItem(COLLECTION_STORAGE_KEY, JSON.stringify({ "https://old.example.com/mcp": null }));
  assert.deepEqual(saveCollection(s, SERVER, small("new"), 1), { ok: true, evicted: [] });
  assert.equal(loadCollection(s, SERVER)?.name, "new");
});

test("save: the collection just saved is kept even when its time is older than every other (clock set back)", () => {
  const { s } = storage();
  for (let i = 0; i < MAX_STORED_COLLECTIONS; i++) saveCollection(s, `server-${i}`, small(`c${i}`), 10_000 + i);
  assert.deepEqual(saveCollection(s, SERVER, small("late"), 500), { ok: true, evicted: ["server-0"] });
  assert.equal(loadCollection(s, SERVER)?.name, "late");
});

/** A collection whose file text is `size` UTF-16 code units long (its description is padding that JSON needs no escapes for). */
function sized(name: string, size: number): Collection {
  const base = { ...small(name), description: "" };
  const c = { ...base, description: "y".repeat(size - writeCollection(base).length) };
  assert.equal(writeCollection(c).length, size);
  return c;
}

test("save: all the collections together stay within MAX_STORED_COLLECTIONS_BYTES; the least recently saved go, named", () => {
  const { s, mem } = storage();
  const KB = 1024;
  const server = (i: number) => `https://mcp${i}.example.com/mcp`;
  const storedSize = () => (mem.getItem(COLLECTION_STORAGE_KEY) ?? "").length;
  // Four of 500 KB fit in 2 MiB; a fifth does not.
  for (let i = 0; i < 4; i++) assert.deepEqual(saveCollection(s, server(i), sized(`c${i}`, 500 * KB), 10 + i), { ok: true, evicted: [] });
  assert.ok(storedSize() <= MAX_STORED_COLLECTIONS_BYTES, `${storedSize()}`);
  assert.deepEqual(saveCollection(s, server(4), sized("c4", 500 * KB), 20), { ok: true, evicted: [server(0)] });
  assert.equal(loadCollection(s, server(0)), undefined);
  // Saving 1 again makes it the newest, so 2 and then 3 are the least recently saved.
  assert.deepEqual(saveCollection(s, server(1), sized("c1 again", 500 * KB), 21), { ok: true, evicted: [] });
  assert.deepEqual(saveCollection(s, server(5), sized("c5", 400 * KB), 22), { ok: true, evicted: [server(2)] });
  assert.deepEqual(saveCollection(s, server(6), sized("c6", 400 * KB), 23), { ok: true, evicted: [server(3)] });
  assert.deepEqual(Object.keys(stored(mem)).sort(), [server(1), server(4), server(5), server(6)]);
  assert.ok(storedSize() <= MAX_STORED_COLLECTIONS_BYTES, `${storedSize()}`);
  // A collection saved with a clock set back is still kept: only others make room for it.
  assert.deepEqual(saveCollection(s, SERVER, sized("late", 500 * KB), 1), { ok: true, evicted: [server(4)] });
  assert.equal(loadCollection(s, SERVER)?.name, "late");
  assert.deepEqual(Object.keys(stored(mem)).sort(), [server(1), server(5), server(6), SERVER].sort());
});

test("save: as many least recently saved others go as the room needs, oldest first", () => {
  const { s, mem } = storage();
  const KB = 1024;
  for (let i = 0; i < 10; i++) saveCollection(s, `small-${i}`, sized(`s${i}`, 100 * KB), i);
  assert.deepEqual(saveCollection(s, "big-a", sized("a", 500 * KB), 20), { ok: true, evicted: [] });
  assert.deepEqual(saveCollection(s, "big-b", sized("b", 500 * KB), 21), { ok: true, evicted: [] });
  // 2,500 KB: four 100 KB collections leave 2,100 KB, over 2,048; the fifth makes room.
  assert.deepEqual(saveCollection(s, "big-c", sized("c", 500 * KB), 22), {
    ok: true,
    evicted: ["small-0", "small-1", "small-2", "small-3", "small-4"],
  });
  assert.equal(Object.keys(stored(mem)).length, 8);
});

test("save: a store of exactly MAX_STORED_COLLECTIONS_BYTES is kept whole; one unit more drops the oldest other", () => {
  const { s, mem } = storage();
  const KB = 1024;
  for (let i = 0; i < 4; i++) saveCollection(s, `server-${i}`, sized(`c${i}`, 500 * KB), 10 + i);
  // What is left of the budget with a 1,000-unit collection for SERVER: its padding can take exactly that much more.
  assert.deepEqual(saveCollection(s, SERVER, sized("edge", 1000), 20), { ok: true, evicted: [] });
  const room = MAX_STORED_COLLECTIONS_BYTES - (mem.getItem(COLLECTION_STORAGE_KEY) ?? "").length;
  assert.ok(room > 0 && room < 512 * KB - 1000, `${room}`);
  assert.deepEqual(saveCollection(s, SERVER, sized("edge", 1000 + room), 21), { ok: true, evicted: [] });
  assert.equal((mem.getItem(COLLECTION_STORAGE_KEY) ?? "").length, MAX_STORED_COLLECTIONS_BYTES);
  assert.deepEqual(saveCollection(s, SERVER, sized("edge", 1000 + room + 1), 22), { ok: true, evicted: ["server-0"] });
  assert.equal(Object.keys(stored(mem)).length, 4);
});

test("save: a storage that refuses the write evicts nothing (what was kept stays as it was)", () => {
  const mem = new MemoryStorage();
  const s = mem as unknown as Storage;
  for (let i = 0; i < MAX_STORED_COLLECTIONS; i++) saveCollection(s, `server-${i}`, small(`c${i}`), i);
  const before = mem.getItem(COLLECTION_STORAGE_KEY);
  const full = Object.assign(mem, {
    setItem() {
      throw new DOMException("The quota has been exceeded.", "QuotaExceededError");
    },
  });
  assert.equal(saveCollection(full as unknown as Storage, SERVER, small("new"), 100).ok, false);
  assert.equal(mem.getItem(COLLECTION_STORAGE_KEY), before);
});
