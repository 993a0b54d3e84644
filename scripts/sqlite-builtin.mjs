// Node's own SQLite module (node:sqlite), where Node has it without a flag (22.13+), else undefined. Shared by the
// snapshot store's driver (lib/server/snapshots/sqlite-driver.ts) and scripts/ensure-sqlite.mjs.

/** @returns {{ DatabaseSync: new (file: string, options?: { readOnly?: boolean }) => unknown } | undefined} */
export function builtinSqlite() {
  if (typeof process.getBuiltinModule !== "function") return undefined;
  // Node 22 warns once that the module is experimental: nothing a user of Toolscope can act on, so that one warning
  // is dropped while the module loads; every other warning passes.
  const emit = process.emitWarning;
  process.emitWarning = (warning, ...rest) => {
    if (String(warning).includes("SQLite is an experimental feature")) return;
    emit.call(process, warning, ...rest);
  };
  try {
    return process.getBuiltinModule("node:sqlite");
  } catch {
    return undefined;
  } finally {
    process.emitWarning = emit;
  }
}
