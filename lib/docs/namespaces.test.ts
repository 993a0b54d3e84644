import { test } from "node:test";
import assert from "node:assert/strict";
import { groupByNamespace, namespacePrefix } from "./namespaces.ts";

test("namespacePrefix finds the first segment, skipping verbs", () => {
  assert.equal(namespacePrefix("github_create_issue"), "github_");
  assert.equal(namespacePrefix("jira.search"), "jira.");
  assert.equal(namespacePrefix("a-b-c"), "a-");
  assert.equal(namespacePrefix("get_user"), undefined);
  assert.equal(namespacePrefix("search"), undefined);
  assert.equal(namespacePrefix("_private"), undefined);
});

test("groups only prefixes shared by two or more tools", () => {
  const groups = groupByNamespace(["github_create_issue", "jira.search", "github_list_prs", "jira.create", "echo", "slack_post"]);
  assert.deepEqual(
    groups.map((g) => [g.prefix, g.label, g.names]),
    [
      ["github_", "github", ["github_create_issue", "github_list_prs"]],
      ["jira.", "jira", ["jira.search", "jira.create"]],
      [null, "Other", ["echo", "slack_post"]],
    ],
  );
});

test("no shared prefix: one group", () => {
  assert.deepEqual(groupByNamespace(["get_user", "get_issue", "echo"]), [
    { prefix: null, label: "All tools", names: ["get_user", "get_issue", "echo"] },
  ]);
  assert.deepEqual(groupByNamespace([]), [{ prefix: null, label: "All tools", names: [] }]);
});
