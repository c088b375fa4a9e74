// Loads node:sqlite without Node's one-time "SQLite is an experimental feature" warning: it would land
// on the stderr of every host that stores sessions in SQLite, which did not ask for it. Only that
// warning is held back, and only while node:sqlite loads; every other warning passes as before.
import { createRequire } from "node:module";

const SQLITE_WARNING = /\bSQLite\b/;

/** `node:sqlite`, loaded with its experimental warning dropped. */
export function loadSqlite(): typeof import("node:sqlite") {
  const emitWarning = process.emitWarning;
  process.emitWarning = function (this: NodeJS.Process, warning: string | Error, ...rest: unknown[]) {
    const type = typeof rest[0] === "string" ? rest[0] : (rest[0] as { type?: string } | undefined)?.type;
    const text = typeof warning === "string" ? warning : warning.message;
    const name = typeof warning === "string" ? type : warning.name;
    if (name === "ExperimentalWarning" && SQLITE_WARNING.test(text)) return;
    return (emitWarning as (...args: unknown[]) => void).call(process, warning, ...rest);
  } as typeof process.emitWarning;
  try {
    return createRequire(import.meta.url)("node:sqlite") as typeof import("node:sqlite");
  } finally {
    process.emitWarning = emitWarning;
  }
}
