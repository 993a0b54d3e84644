/**
 * POST /api/skills as the route composes it (handleApi, the body guard, the service on rpc()'s path) against real SDK
 * skills servers in both eras: listing reads nothing, a honest file comes back verified, a tampered one comes back
 * refused (as data, with the wire record, never its content), and what cannot be asked is a typed error.
 */
import { after, before, beforeEach, test } from "node:test";
import assert from "node:assert/strict";
import { createMcpHandler, McpServer } from "@modelcontextprotocol/server";
import type { ConnectionDescriptor, ProxyErrorBody } from "@/lib/mcp/contract";
import type { SkillsListResponse, SkillsReadResponse } from "@/lib/mcp/skills-contract";

process.env.TOOLSCOPE_MODE = "local";
delete process.env.REDIS_URL;

const { serveFetchHandler } = await import("@/lib/demo/testing/node-http-adapter");
const { skillsServerFactory, skillReads, PDF_SKILL, FORMS_FILE } = await import("@/lib/upstream/testing/skills-server");
const { parseSkillsRequest } = await import("@/lib/mcp/skills-guards");
const { config } = await import("../platform/config.ts");
const { handleApi } = await import("./api-route.ts");
const { connect } = await import("./proxy-service.ts");
const { skills } = await import("./skills-service.ts");

const handlers = {
  honest: createMcpHandler(skillsServerFactory()),
  digest: createMcpHandler(skillsServerFactory({ tamper: "digest" })),
  plain: createMcpHandler(() => new McpServer({ name: "no-skills", version: "1.0.0" }, { capabilities: { resources: {} } })),
};
let served: Awaited<ReturnType<typeof serveFetchHandler>>;

before(async () => {
  served = await serveFetchHandler({
    fetch: (req) => handlers[new URL(req.url).pathname.split("/")[1] as keyof typeof handlers].fetch(req),
  });
});
after(async () => {
  await Promise.all(Object.values(handlers).map((h) => h.close()));
  await served.close();
});
beforeEach(() => {
  skillReads.length = 0;
});

const ctx = () => ({ config: config(), origin: "http://127.0.0.1:3000", signal: new AbortController().signal });

async function connected(server: keyof typeof handlers, era: "modern" | "legacy") {
  const res = await connect({ url: new URL(`/${server}/${era}`, served.url).toString(), era, headers: {} }, ctx());
  return { connection: res.connection as ConnectionDescriptor, capabilities: res.server.capabilities };
}

/** One POST /api/skills, through the route's composition. */
async function post(body: Record<string, unknown>): Promise<{ status: number; json: unknown }> {
  const req = new Request("http://127.0.0.1:3000/api/skills", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const res = await handleApi(req, parseSkillsRequest, skills, (i) => i.connection.url);
  return { status: res.status, json: await res.json() };
}

for (const era of ["modern", "legacy"] as const) {
  test(`${era}: list reads no file; read of SKILL.md and of a supporting file come back verified`, async () => {
    const on = await connected("honest", era);
    const list = await post({ ...on, op: "list" });
    assert.equal(list.status, 200);
    const listed = list.json as SkillsListResponse;
    assert.equal(listed.op, "list");
    assert.ok(listed.skills.some((s) => s.uri === PDF_SKILL));
    assert.ok(listed.exchanges.length > 0);
    assert.deepEqual(skillReads, []);
    const pdf = listed.skills.find((s) => s.uri === PDF_SKILL)!;
    const manifest = (await post({ ...on, op: "read", skill: pdf })).json as SkillsReadResponse;
    assert.equal(manifest.file?.verified, true);
    assert.match(manifest.file?.text ?? "", /^---\nname: pdf-processing\n/);
    const forms = (await post({ ...on, op: "read", skill: pdf, file: FORMS_FILE })).json as SkillsReadResponse;
    assert.equal(forms.file?.uri, FORMS_FILE);
    assert.deepEqual(skillReads, [PDF_SKILL, FORMS_FILE]);
  });

  test(`${era}: a tampered SKILL.md is refused as data: the reason, the message, the exchanges, no content`, async () => {
    const on = await connected("digest", era);
    // By its URI: skills/get runs first, and the entry it returned is what the file is checked against.
    const res = await post({ ...on, op: "read", skill: PDF_SKILL });
    assert.equal(res.status, 200);
    const answer = res.json as SkillsReadResponse;
    assert.equal(answer.refused?.reason, "digest");
    assert.match(answer.refused?.message ?? "", /^SKILL\.md of pdf-processing: digest mismatch/);
    assert.equal(answer.file, undefined);
    assert.equal(answer.skill.uri, PDF_SKILL);
    const methods = answer.exchanges.map((x) => /"method":"([^"]+)"/.exec(x.request.body ?? "")?.[1]).filter(Boolean);
    assert.deepEqual(methods, ["skills/get", "resources/read"]);
  });

  test(`${era}: a server that did not declare the extension is a 400 naming the declaration it lacks`, async () => {
    const on = await connected("plain", era);
    const res = await post({ ...on, op: "list" });
    assert.equal(res.status, 400);
    const error = (res.json as ProxyErrorBody).error;
    assert.equal(error.kind, "bad-request");
    assert.match(error.message, /did not declare the skills extension \(capabilities\.extensions\["io\.modelcontextprotocol\/skills"\]\)/);
  });

  test(`${era}: an unknown skill is the server's -32602 as a 400, with the exchange that asked`, async () => {
    const on = await connected("honest", era);
    const res = await post({ ...on, op: "get", uri: "skill://nowhere/SKILL.md" });
    assert.equal(res.status, 400);
    const error = (res.json as ProxyErrorBody).error;
    assert.match(error.message, /serves no skill at that URI/);
    assert.ok((error.exchanges ?? []).length > 0);
  });
}

test("the body guard names what is wrong before anything is sent", async () => {
  const on = await connected("honest", "modern");
  for (const [body, message] of [
    [{ ...on, op: "delete" }, /"op" must be one of "list", "get", "read", "directory"/],
    [{ ...on, op: "get" }, /"uri" must be a URI/],
    [{ ...on, op: "read", skill: { uri: PDF_SKILL } }, /"skill" must be the skill entry/],
    [{ ...on, op: "list", capabilities: [] }, /"capabilities" must be the object/],
  ] as const) {
    const res = await post(body);
    assert.equal(res.status, 400);
    assert.match((res.json as ProxyErrorBody).error.message, message);
  }
  assert.deepEqual(skillReads, []);
});

test("legacy: without the capabilities connect returned, the route says what to send", async () => {
  const { connection } = await connected("honest", "legacy");
  const res = await post({ connection, op: "list" });
  assert.equal(res.status, 400);
  assert.match((res.json as ProxyErrorBody).error.hint ?? "", /Send "capabilities" as \/api\/connect returned them/);
});
