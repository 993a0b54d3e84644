import { test } from "node:test";
import assert from "node:assert/strict";
import { SIDEBAR_FULL_MAX, SIDEBAR_RADIUS } from "@/lib/docs/sidebar/window";
import { renderDocsSite, type SiteInput } from "./render-site";

/** Tools in three namespaces, so the sidebar groups them as a real server's. */
function syntheticTools(count: number) {
  return Array.from({ length: count }, (_, i) => ({
    name: `${["issues", "repos", "users"][i % 3]}.tool_${String(i).padStart(3, "0")}`,
    description: `Tool number ${i}. It does one thing.`,
    inputSchema: { type: "object", properties: { id: { type: "string", description: "The id." } } },
  }));
}

const assets = { cssFile: "site.css", csp: "default-src 'none'", themeScript: "", searchScript: "" };

function site(count: number) {
  const input: SiteInput = {
    source: "https://example.test/mcp",
    server: {
      era: "modern",
      protocolVersion: "2026-07-28",
      supportedVersions: ["2026-07-28"],
      capabilities: { tools: {} },
      displayUrl: "https://example.test/mcp",
    },
    tools: syntheticTools(count),
    excluded: [],
    generator: "test",
  };
  return { tools: input.tools, files: renderDocsSite(input, assets) };
}

const sidebarLinks = (html: string) => html.match(/data-sidebar-link=""/g)?.length ?? 0;

test("up to SIDEBAR_FULL_MAX tools every page lists all of them, its own marked, with the sidebar's search box", () => {
  const { tools, files } = site(40);
  const page = files.find((f) => f.file !== "index.html")!;
  assert.equal(sidebarLinks(page.html), 40);
  assert.equal(page.html.match(/aria-current="page"/g)?.length, 1);
  assert.match(page.html, /id="sidebar-search"/);
  assert.doesNotMatch(page.html, /data-testid="sidebar-window"/);
  assert.equal(files.length, tools.length + 1);
});

test("above it a page lists the tools around its own and links to the index's search, so the site grows linearly", () => {
  const count = SIDEBAR_FULL_MAX + 50;
  const { tools, files } = site(count);
  for (const tool of [tools[0], tools[Math.floor(count / 2)], tools[count - 1]]) {
    const page = files.find((f) => f.html.includes(`<title>${tool.name} `))!;
    assert.equal(sidebarLinks(page.html), 2 * SIDEBAR_RADIUS + 1, tool.name);
    assert.match(page.html, new RegExp(`<a href="${page.file.replace(/\./g, "\\.")}" data-sidebar-link="" aria-current="page"`));
    assert.match(page.html, /data-testid="sidebar-window"[^]*?href="index\.html#tool-search"[^]*?Find a tool among all 200/);
    assert.doesNotMatch(page.html, /id="sidebar-search"/);
  }
  const biggest = Math.max(...files.filter((f) => f.file !== "index.html").map((f) => f.html.length));
  const small = Math.max(
    ...site(40)
      .files.filter((f) => f.file !== "index.html")
      .map((f) => f.html.length),
  );
  assert.ok(
    biggest < small * 2,
    `a page of a ${count}-tool site (${biggest} B) is not much bigger than one of a 40-tool site (${small} B)`,
  );
});
