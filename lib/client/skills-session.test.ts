import { test } from "node:test";
import assert from "node:assert/strict";
import { publicConnection, skillsSession } from "./skills-session.ts";

const LEGACY = { v: 1 as const, url: "https://mcp.example/mcp", era: "legacy" as const, protocolVersion: "2025-11-25", sessionId: "s1" };
const CAPS = { resources: {}, extensions: { "io.modelcontextprotocol/skills": {} } };

/** Answers each POST with `answer(path, body)` and records what was sent. */
async function withApi<T>(answer: (path: string, body: Record<string, unknown>) => unknown, run: () => Promise<T>) {
  const sent: { path: string; body: Record<string, unknown> }[] = [];
  const original = globalThis.fetch;
  globalThis.fetch = (async (url: string, init: RequestInit) => {
    const body = JSON.parse(String(init.body)) as Record<string, unknown>;
    sent.push({ path: url, body });
    return new Response(JSON.stringify(answer(url, body)), { headers: { "content-type": "application/json" } });
  }) as typeof fetch;
  try {
    return { result: await run(), sent };
  } finally {
    globalThis.fetch = original;
  }
}

test("every operation carries the connection, the declared capabilities and the headers; the op's fields only", async () => {
  const session = skillsSession({
    connect: async () => ({ connection: LEGACY, capabilities: CAPS }),
    headers: { authorization: "Bearer t" },
  });
  const entry = { uri: "skill://a/b/SKILL.md", frontmatter: { name: "b", description: "d" }, resources: "dynamic" as const };
  const { sent } = await withApi(
    (_path, body) => ({ op: body.op, exchanges: [] }),
    async () => {
      await session.list();
      await session.get(entry.uri);
      await session.read(entry);
      await session.read(entry, "references/X.md");
    },
  );
  assert.deepEqual(
    sent.map((s) => s.path),
    ["/api/skills", "/api/skills", "/api/skills", "/api/skills"],
  );
  for (const { body } of sent) {
    assert.deepEqual(body.connection, LEGACY);
    assert.deepEqual(body.capabilities, CAPS);
    assert.deepEqual(body.headers, { authorization: "Bearer t" });
  }
  assert.deepEqual(
    sent.map(({ body: { op, uri, skill, file } }) => ({ op, uri, skill: skill && "entry", file })),
    [
      { op: "list", uri: undefined, skill: undefined, file: undefined },
      { op: "get", uri: entry.uri, skill: undefined, file: undefined },
      { op: "read", uri: undefined, skill: "entry", file: undefined },
      { op: "read", uri: undefined, skill: "entry", file: "references/X.md" },
    ],
  );
});

test("a docs page's connection: made once without credentials, renewed when the API says so, retried after a failure", async () => {
  let connects = 0;
  const renewed = { ...LEGACY, sessionId: "s2" };
  const { sent } = await withApi(
    (path, body) => {
      if (path === "/api/connect") {
        connects++;
        return { connection: LEGACY, server: { capabilities: CAPS } };
      }
      // The first list renews the session; later ones answer plainly.
      return {
        op: body.op,
        skills: [],
        exchanges: [],
        ...((body.connection as { sessionId: string }).sessionId === "s1" ? { connection: renewed } : {}),
      };
    },
    async () => {
      const session = skillsSession(publicConnection("https://mcp.example/mcp"));
      await session.list();
      await session.list();
    },
  );
  assert.equal(connects, 1);
  assert.deepEqual(sent[0].body, { url: "https://mcp.example/mcp", era: "auto", interactive: false });
  assert.equal((sent[1].body.connection as { sessionId: string }).sessionId, "s1");
  assert.equal((sent[2].body.connection as { sessionId: string }).sessionId, "s2", "the renewed session is used next");

  const at = publicConnection("https://down.example/mcp");
  const original = globalThis.fetch;
  let calls = 0;
  globalThis.fetch = (async () => {
    calls++;
    if (calls === 1) throw new TypeError("fetch failed");
    return new Response(JSON.stringify({ connection: LEGACY, server: { capabilities: CAPS } }));
  }) as typeof fetch;
  try {
    await assert.rejects(at.connect());
    assert.deepEqual((await at.connect()).capabilities, CAPS, "a failed connect is not remembered");
  } finally {
    globalThis.fetch = original;
  }
});
