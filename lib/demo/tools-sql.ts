/**
 * `execute_sql`: a read-only, deliberately tiny SQL dialect over the in-memory issues, whose
 * `region` argument is mirrored into the `Mcp-Param-Region` HTTP header (SEP-2243 `x-mcp-header`).
 */
import { fromJsonSchema } from "@modelcontextprotocol/server";
import { ICONS } from "./icons.ts";
import { listIssues, type Issue } from "./issue-store.ts";
import { lazy, toolError, type DemoToolContext } from "./tool-kit.ts";

export const SQL_REGIONS = ["us-east1", "us-west1", "eu-west1"] as const;
export type SqlRegion = (typeof SQL_REGIONS)[number];

const MAX_QUERY = 2_000;
const MAX_ROWS = 100;

/** Raw JSON Schema, because the `x-mcp-header` annotation must sit on the `region` property itself. */
const SQL_SCHEMA = {
  type: "object",
  properties: {
    query: {
      type: "string",
      maxLength: MAX_QUERY,
      description:
        "A single SELECT statement against the `issues` table, e.g. SELECT id, title FROM issues WHERE status = 'open' ORDER BY id DESC LIMIT 5.",
      examples: ["SELECT id, title, status FROM issues WHERE status = 'open' ORDER BY id DESC LIMIT 5"],
    },
    region: {
      type: "string",
      enum: [...SQL_REGIONS],
      description:
        "Which regional replica runs the query. Sent to the server as the Mcp-Param-Region HTTP header so gateways can route it.",
      "x-mcp-header": "Region",
    },
  },
  required: ["query", "region"],
  additionalProperties: false,
} as const;

type SqlArgs = { query: string; region: SqlRegion };
const sqlSchema = lazy(() => fromJsonSchema<SqlArgs>(SQL_SCHEMA));

const COLUMNS = ["id", "title", "status", "labels", "assignee", "created_at", "updated_at"] as const;
type Column = (typeof COLUMNS)[number];
type Cell = string | number | null;

function cell(issue: Issue, column: Column): Cell {
  switch (column) {
    case "id":
      return issue.id;
    case "title":
      return issue.title;
    case "status":
      return issue.status;
    case "labels":
      return issue.labels.join(",");
    case "assignee":
      return issue.assignee === null ? null : issue.assignee.kind === "user" ? issue.assignee.userId : `team:${issue.assignee.team}`;
    case "created_at":
      return new Date(issue.createdAt).toISOString();
    case "updated_at":
      return new Date(issue.updatedAt).toISOString();
  }
}

export class SqlError extends Error {
  override name = "SqlError";
}

const SUPPORTED =
  "Supported: SELECT <columns | * | COUNT(*)> FROM issues [WHERE <column> = <value> [AND ...]] [ORDER BY <column> [ASC|DESC]] [LIMIT <n>]. " +
  `Columns: ${COLUMNS.join(", ")}.`;

function column(name: string): Column {
  const lower = name.toLowerCase();
  if (!(COLUMNS as readonly string[]).includes(lower)) throw new SqlError(`Unknown column "${name}". ${SUPPORTED}`);
  return lower as Column;
}

function literal(raw: string): Cell {
  const t = raw.trim();
  if (/^'(?:[^']|'')*'$/.test(t)) return t.slice(1, -1).replace(/''/g, "'");
  if (/^-?\d+$/.test(t)) return Number(t);
  if (/^null$/i.test(t)) return null;
  throw new SqlError(`Cannot read the value ${t}: quote strings with single quotes ('open') and write numbers bare (3). ${SUPPORTED}`);
}

export interface SqlResult {
  columns: string[];
  rows: Cell[][];
}

const SELECT =
  /^select\s+(.+?)\s+from\s+([a-z_][a-z0-9_]*)(?:\s+where\s+(.+?))?(?:\s+order\s+by\s+([a-z_]+)(?:\s+(asc|desc))?)?(?:\s+limit\s+(\d+))?$/i;

/** Runs one statement of the supported subset against the current issues. */
export function runSql(query: string): SqlResult {
  const statement = query.trim().replace(/;\s*$/, "");
  if (statement.includes(";")) throw new SqlError("Only one statement per call is allowed.");
  const verb = /^\s*([a-z]+)/i.exec(statement)?.[1]?.toUpperCase();
  if (verb && verb !== "SELECT")
    throw new SqlError(
      `${verb} is not allowed: the demo database is read-only. Use create_issue, close_issue or delete_issue to change data. ${SUPPORTED}`,
    );
  const m = SELECT.exec(statement);
  if (!m) throw new SqlError(`Could not parse the query. ${SUPPORTED}`);
  const [, projection, table, where, orderBy, direction, limit] = m;
  if (table.toLowerCase() !== "issues") throw new SqlError(`Unknown table "${table}". The only table is \`issues\`. ${SUPPORTED}`);

  let issues = listIssues();
  if (where) {
    for (const condition of where.split(/\s+and\s+/i)) {
      const c = /^([a-z_]+)\s*=\s*(.+)$/i.exec(condition.trim());
      if (!c) throw new SqlError(`Unsupported condition "${condition.trim()}": only <column> = <value> joined by AND. ${SUPPORTED}`);
      const col = column(c[1]);
      const value = literal(c[2]);
      issues = issues.filter((issue) => cell(issue, col) === value);
    }
  }
  if (orderBy) {
    const col = column(orderBy);
    const sign = direction?.toLowerCase() === "desc" ? -1 : 1;
    issues = [...issues].sort((a, b) => {
      const x = cell(a, col) ?? "";
      const y = cell(b, col) ?? "";
      return (x < y ? -1 : x > y ? 1 : 0) * sign;
    });
  }
  const cap = Math.min(limit === undefined ? MAX_ROWS : Number(limit), MAX_ROWS);

  const proj = projection.trim();
  if (/^count\s*\(\s*\*\s*\)$/i.test(proj)) return { columns: ["count"], rows: [[issues.length]] };
  const columns: Column[] = proj === "*" ? [...COLUMNS] : proj.split(",").map((p) => column(p.trim()));
  return { columns, rows: issues.slice(0, cap).map((issue) => columns.map((col) => cell(issue, col))) };
}

function table(result: SqlResult): string {
  const show = (v: Cell) => (v === null ? "NULL" : String(v));
  const lines = [
    result.columns.join(" | "),
    result.columns.map(() => "---").join(" | "),
    ...result.rows.map((r) => r.map(show).join(" | ")),
  ];
  return lines.join("\n");
}

export function registerSqlTools({ server, track }: DemoToolContext): void {
  track(
    "execute_sql",
    server.registerTool(
      "execute_sql",
      {
        title: "Run SQL (read-only)",
        description:
          "Runs one read-only SELECT against the `issues` table in the chosen region and returns the rows as a table. Use it for ad-hoc filters and counts that search_issues cannot express; it cannot modify data. Only a small SQL subset is understood (WHERE col = value with AND, ORDER BY, LIMIT, COUNT(*)); the error message lists it.",
        inputSchema: sqlSchema(),
        annotations: { readOnlyHint: true, openWorldHint: false },
        icons: [...ICONS.database],
      },
      async ({ query, region }) => {
        try {
          const result = runSql(query);
          const summary = `Ran in region ${region}: ${result.rows.length} row${result.rows.length === 1 ? "" : "s"}.`;
          return {
            content: [{ type: "text", text: `${summary}\n\n${table(result)}` }],
            structuredContent: { region, columns: result.columns, rows: result.rows, row_count: result.rows.length },
          };
        } catch (error) {
          if (error instanceof SqlError) return toolError(`${error.message} (region ${region})`);
          throw error;
        }
      },
    ),
  );
}
