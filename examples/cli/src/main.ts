#!/usr/bin/env node
// Entry point of lathe-cli (run it with `npm run cli` or `npm run demo` from the repository root, on
// the repository's pinned Node 22). @lathe/storage keeps Node's SQLite notice off stderr itself.
await import("./cli.ts");
