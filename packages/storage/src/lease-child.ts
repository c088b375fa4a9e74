// A child process for cross-process lease tests (see spawnLeaseProcess in conformance.ts): opens
// `new (await import(argv[2]))[argv[3]](JSON.parse(argv[4]))` and runs lease commands read from
// stdin as JSON lines, answering each with a JSON line on stdout.
// Only node: imports here: when run from the TypeScript sources (Node's type stripping, in this
// repository), resolve hooks must be registered before the adapter's module is loaded.
import { existsSync } from "node:fs";
import { registerHooks } from "node:module";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

interface Command {
  id: number;
  op: "acquireLease" | "renewLease" | "releaseLease" | "getLease" | "close";
  sessionID?: string;
  owner?: string;
  ttlMs?: number;
}

if (import.meta.url.endsWith(".ts")) {
  // From sources: @lathe/<pkg> is packages/<pkg>/src/index.ts, and "./x.js" is "./x.ts".
  const packages = new URL("../../", import.meta.url);
  registerHooks({
    resolve(specifier, context, next) {
      const name = /^@lathe\/([a-z-]+)(\/conformance)?$/.exec(specifier);
      if (name) return { url: new URL(`${name[1]}/src/${name[2] ? "conformance" : "index"}.ts`, packages).href, shortCircuit: true };
      if (specifier.startsWith(".") && specifier.endsWith(".js") && context.parentURL?.endsWith(".ts")) {
        const ts = new URL(`${specifier.slice(0, -3)}.ts`, context.parentURL);
        if (existsSync(fileURLToPath(ts))) return { url: ts.href, shortCircuit: true };
      }
      return next(specifier, context);
    },
  });
}

const [specifier, exportName, options] = process.argv.slice(2);
const module = (await import(specifier!)) as Record<string, new (options: unknown) => Record<string, (...args: unknown[]) => Promise<unknown>>>;
const storage = new module[exportName!]!(JSON.parse(options!));
await storage.schemaVersion?.(); // opened and migrated before we say ready
const send = (message: unknown) => process.stdout.write(`${JSON.stringify(message)}\n`);
send({ ready: true });

for await (const line of createInterface({ input: process.stdin })) {
  const command = JSON.parse(line) as Command;
  try {
    if (command.op === "close") {
      await storage.close!();
      send({ id: command.id, result: null });
      break;
    }
    const result = await storage[command.op]!(command.sessionID, command.owner, command.ttlMs);
    send({ id: command.id, result: result ?? null });
  } catch (error) {
    send({ id: command.id, error: String(error) });
  }
}
