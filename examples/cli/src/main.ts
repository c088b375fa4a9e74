#!/usr/bin/env node
// Entry point of lathe-cli. Silences Node's notice that `node:sqlite` is experimental (Lathe's SQLite
// storage uses it; the notice would land in the middle of the conversation), then starts the CLI.
process.removeAllListeners("warning");
process.on("warning", (warning) => {
  if (warning.name !== "ExperimentalWarning") process.stderr.write(`${warning.name}: ${warning.message}\n`);
});
await import("./cli.ts");
