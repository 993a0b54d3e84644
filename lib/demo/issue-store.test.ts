import assert from "node:assert/strict";
import { beforeEach, test } from "node:test";
import {
  BASKET_TTL_MS,
  LIMITS,
  NotFoundError,
  StoreLimitError,
  addToBasket,
  checkoutBasket,
  closeIssue,
  createIssue,
  deleteIssue,
  issueStats,
  listIssues,
  openBasket,
  resetDemoStore,
  searchIssues,
} from "./issue-store.ts";

const T0 = Date.UTC(2026, 7, 1);

beforeEach(() => resetDemoStore());

test("seed is deterministic: 12 issues, stable ids and timestamps", () => {
  const first = listIssues();
  resetDemoStore();
  assert.deepEqual(listIssues(), first);
  assert.equal(first.length, 12);
  assert.deepEqual(
    first.map((i) => i.id),
    [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12],
  );
  assert.deepEqual(issueStats().byStatus, { open: 6, in_progress: 3, closed: 3 });
});

test("search is case- and accent-insensitive, filters by status, newest first, reports total", () => {
  const { issues, total } = searchIssues({ query: "CAFÉ", limit: 10 });
  assert.deepEqual(
    issues.map((i) => i.id),
    [7],
  );
  assert.equal(total, 1);
  const open = searchIssues({ query: "", status: "open", limit: 2 });
  assert.equal(open.total, 6);
  assert.deepEqual(
    open.issues.map((i) => i.id),
    [12, 9],
  );
});

test("returned issues are copies: mutating them does not touch the store", () => {
  const [first] = listIssues();
  first.labels.push("hacked");
  assert.ok(!listIssues()[0].labels.includes("hacked"));
});

test("strings are clipped and the issue cap is enforced", () => {
  const created = createIssue(
    { title: "x".repeat(LIMITS.maxTitle + 50), body: "y".repeat(LIMITS.maxBody + 1), labels: ["  Bug ", "bug", ""] },
    T0,
  );
  assert.equal(created.title.length, LIMITS.maxTitle);
  assert.equal(created.body.length, LIMITS.maxBody);
  assert.deepEqual(created.labels, ["bug"]);
  while (listIssues().length < LIMITS.maxIssues) createIssue({ title: "filler" }, T0);
  assert.throws(() => createIssue({ title: "one too many" }, T0), StoreLimitError);
});

test("close is idempotent; delete of a missing issue is a NotFoundError", () => {
  assert.equal(closeIssue(1, T0).changed, true);
  assert.equal(closeIssue(1, T0).changed, false);
  deleteIssue(1);
  assert.throws(() => deleteIssue(1), NotFoundError);
});

test("baskets expire after the TTL and are capped", () => {
  const basket = openBasket(T0);
  assert.match(basket.id, /^b_/);
  assert.notEqual(openBasket(T0).id, basket.id);
  addToBasket(basket.id, 2, T0 + BASKET_TTL_MS - 1);
  assert.throws(() => addToBasket(basket.id, 3, T0 + BASKET_TTL_MS), /has expired \(baskets live 10 minutes\); call open_basket again\./);
  assert.throws(() => checkoutBasket("b_nope", T0), /does not exist/);
  resetDemoStore();
  for (let i = 0; i < LIMITS.maxBaskets; i++) openBasket(T0);
  assert.throws(() => openBasket(T0), StoreLimitError);
  // once they have expired, new baskets can be opened again
  assert.doesNotThrow(() => openBasket(T0 + BASKET_TTL_MS));
});
