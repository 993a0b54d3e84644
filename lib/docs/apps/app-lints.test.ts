import { test } from "node:test";
import assert from "node:assert/strict";
import { toolApp } from "./tool-app.ts";
import { lintToolApp } from "./app-lints.ts";
import { lintTool } from "../lints.ts";

const ids = (meta: Record<string, unknown>) => lintToolApp({ _meta: meta }).map((f) => f.id);

test("a tool's app: the resource from _meta.ui or the deprecated flat key, visibility with the specification's default", () => {
  assert.equal(toolApp({}), undefined);
  assert.equal(toolApp({ _meta: { other: 1 } }), undefined);
  assert.deepEqual(toolApp({ _meta: { ui: { resourceUri: "ui://a/view.html" } } }), {
    resourceUri: "ui://a/view.html",
    fromDeprecatedKey: false,
    conflictingKeys: false,
    visibility: ["model", "app"],
    visibilityDeclared: false,
    unknownVisibility: [],
  });
  const flat = toolApp({ _meta: { "ui/resourceUri": "ui://a/old.html" } });
  assert.equal(flat?.resourceUri, "ui://a/old.html");
  assert.equal(flat?.fromDeprecatedKey, true);
  const both = toolApp({ _meta: { ui: { resourceUri: "ui://a/new.html" }, "ui/resourceUri": "ui://a/old.html" } });
  assert.equal(both?.resourceUri, "ui://a/new.html", "the nested key wins");
  assert.equal(both?.conflictingKeys, true);
  assert.deepEqual(toolApp({ _meta: { ui: { visibility: ["app", "app", "robot"] } } })?.visibility, ["app"]);
});

test("app lints: a non-ui:// resource, the deprecated key alone, keys that disagree", () => {
  assert.deepEqual(ids({ ui: { resourceUri: "ui://server/view.html" } }), []);
  assert.deepEqual(ids({ ui: { resourceUri: "https://example.com/view.html" } }), ["app-resource-not-ui"]);
  assert.deepEqual(ids({ "ui/resourceUri": "ui://server/view.html" }), ["app-resource-deprecated-key"]);
  assert.deepEqual(ids({ ui: { resourceUri: "ui://s/a.html" }, "ui/resourceUri": "ui://s/a.html" }), [], "both keys, the same URI: fine");
  assert.deepEqual(ids({ ui: { resourceUri: "ui://s/a.html" }, "ui/resourceUri": "ui://s/b.html" }), ["app-resource-conflict"]);
});

test("app lints: visibility that hides a tool from both, values the specification does not define, app-only tools", () => {
  assert.deepEqual(ids({ ui: { resourceUri: "ui://s/a.html", visibility: [] } }), ["app-visibility-none"]);
  assert.deepEqual(ids({ ui: { visibility: ["agent"] } }), ["app-visibility-none", "app-visibility-unknown"]);
  assert.deepEqual(ids({ ui: { visibility: "app" } }), ["app-visibility-none", "app-visibility-unknown"], "not a list");
  assert.deepEqual(ids({ ui: { resourceUri: "ui://s/a.html", visibility: ["app"] } }), ["app-only-tool"]);
  assert.deepEqual(ids({ ui: { resourceUri: "ui://s/a.html", visibility: ["model"] } }), []);
  const none = lintToolApp({ _meta: { ui: { visibility: [] } } })[0];
  assert.equal(none.severity, "error");
  assert.match(none.fix, /default is \["model", "app"\]/);
});

test("the docs' lints include the app findings, on the tool they belong to", () => {
  const findings = lintTool({
    name: "refresh_dashboard",
    description: "Refreshes the dashboard's data. Called by the dashboard app itself, every minute.",
    inputSchema: { type: "object", properties: {}, additionalProperties: false },
    _meta: { ui: { resourceUri: "https://x.test/app", visibility: ["app"] } },
  });
  const app = findings.filter((f) => f.id.startsWith("app-"));
  assert.deepEqual(
    app.map((f) => [f.id, f.toolName]),
    [
      ["app-resource-not-ui", "refresh_dashboard"],
      ["app-only-tool", "refresh_dashboard"],
    ],
  );
});
