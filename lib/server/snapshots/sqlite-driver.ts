import "server-only";
import { builtinSqlite as loadBuiltin } from "@/scripts/sqlite-builtin.mjs";

/**
 * The few calls the snapshot store makes of SQLite, met by Node's built-in `node:sqlite` where Node has it without a
 * flag (22.13+) and by better-sqlite3 elsewhere (Node 20). better-sqlite3 has no prebuilt binary this machine can
 * download, so it compiles from source: about 70 s of a 100 s install. Its install script is therefore not run
 * (package.json `allowScripts`); `scripts/ensure-sqlite.mjs` builds it only on a Node without the built-in module.
 */
export interface SqliteStatement {
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
  run(...params: unknown[]): { changes: number | bigint };
}

export interface SqliteDb {
  prepare(sql: string): SqliteStatement;
  exec(sql: string): void;
  close(): void;
}

type BuiltinSqlite = { DatabaseSync: new (file: string, options?: { readOnly?: boolean }) => SqliteDb };

/** node:sqlite binds no `undefined`; better-sqlite3 binds it as NULL. One behaviour for both: NULL. */
function nullsFor(params: unknown[]): unknown[] {
  return params.map((p) => (p === undefined ? null : p));
}

function adapted(db: SqliteDb): SqliteDb {
  return {
    prepare(sql) {
      const statement = db.prepare(sql);
      return {
        get: (...p) => statement.get(...nullsFor(p)),
        all: (...p) => statement.all(...nullsFor(p)),
        run: (...p) => statement.run(...nullsFor(p)),
      };
    },
    exec: (sql) => db.exec(sql),
    close: () => db.close(),
  };
}

/** Open (or create) an SQLite file with whichever driver this Node has. */
export async function openSqlite(file: string, options: { readOnly?: boolean } = {}): Promise<SqliteDb> {
  const builtin = loadBuiltin() as BuiltinSqlite | undefined;
  if (builtin) return adapted(new builtin.DatabaseSync(file, { readOnly: options.readOnly === true }));
  let Database: new (file: string, options?: { readonly?: boolean }) => SqliteDb;
  try {
    ({ default: Database } = (await import("better-sqlite3")) as unknown as { default: typeof Database });
    return adapted(new Database(file, options.readOnly ? { readonly: true } : undefined));
  } catch (err) {
    throw new Error(
      `Share's local store needs SQLite: Node ${process.versions.node} has no built-in node:sqlite and better-sqlite3 did not load (${(err as Error).message.slice(0, 200)}). On this Node, npm start builds it in its first minute or two: try again then. Or run Node 22.13 or later, or build it with \`node scripts/ensure-sqlite.mjs\`.`,
    );
  }
}
