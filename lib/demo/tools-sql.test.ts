import assert from "node:assert/strict";
import { beforeEach, test } from "node:test";
import { resetDemoStore } from "./issue-store.ts";
import { SqlError, runSql } from "./tools-sql.ts";

beforeEach(() => resetDemoStore());

test("select columns with WHERE, ORDER BY and LIMIT", () => {
  const result = runSql("select id, title from issues where status = 'in_progress' order by id desc limit 2;");
  assert.deepEqual(result.columns, ["id", "title"]);
  assert.deepEqual(
    result.rows.map((r) => r[0]),
    [10, 7],
  );
});

test("COUNT(*) and * projections; AND joins conditions; quotes escape", () => {
  assert.deepEqual(runSql("SELECT COUNT(*) FROM issues WHERE status = 'open' AND assignee = NULL").rows, [[2]]);
  assert.equal(runSql("SELECT * FROM issues LIMIT 1").columns.length, 7);
  assert.deepEqual(runSql("SELECT id FROM issues WHERE title = 'it''s missing'").rows, []);
});

test("everything outside the subset is a SqlError with guidance", () => {
  assert.throws(
    () => runSql("DROP TABLE issues"),
    (e: unknown) => e instanceof SqlError && /read-only/.test(e.message),
  );
  assert.throws(() => runSql("SELECT * FROM users"), /only table is `issues`/);
  assert.throws(() => runSql("SELECT secret FROM issues"), /Unknown column "secret"/);
  assert.throws(() => runSql("SELECT id FROM issues WHERE id > 3"), /only <column> = <value>/);
  assert.throws(() => runSql("SELECT 1; SELECT 2"), /one statement/);
});
