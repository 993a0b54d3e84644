import { test } from "node:test";
import assert from "node:assert/strict";
import type { Tool } from "@/lib/mcp/contract";
import { KnownTools } from "./known-tools.ts";

const server = { url: "https://example.com/mcp", era: "modern" as const };
const tool = (name: string, description = ""): Tool => ({ name, description, inputSchema: { type: "object" } });
const list = (...tools: Tool[]) => ({ tools, excluded: [] });

test("differs: another list than the one last listed for the same server, era and header set", () => {
  const known = new KnownTools();
  assert.equal(known.differs(server, {}, list(tool("a"))), false, "nothing known yet: nothing to compare with");
  known.remember(server, {}, list(tool("a"), tool("b")));
  assert.equal(known.differs(server, {}, list(tool("b"), tool("a"))), false, "the same tools in another order");
  assert.equal(known.differs(server, {}, list(tool("a"))), true, "a tool removed");
  assert.equal(known.differs(server, {}, list(tool("a"), tool("b"), tool("c"))), true, "a tool added");
  assert.equal(known.differs(server, {}, list(tool("a", "changed"), tool("b"))), true, "a definition changed");
  assert.equal(
    known.differs(server, {}, { tools: [tool("a")], excluded: [{ tool: tool("b"), reason: "too deep" }] }),
    false,
    "excluded ones count as listed",
  );
  assert.equal(known.differs(server, { Authorization: "Bearer x" }, list(tool("a"))), false, "another header set is another key");
  known.invalidate(server.url);
  assert.equal(known.differs(server, {}, list(tool("a"))), false, "forgotten on list_changed");
});
