import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, posix, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// Core's layers, top to bottom (docs/architecture.md). A module may import its own layer or a lower
// one, never a higher one; that keeps the folders free of cycles and each one readable on its own.
const LAYERS: readonly (readonly string[])[] = [
  ["index.ts", "agent.ts", "api", "ui"],
  ["loop"],
  ["options.ts"],
  ["agents"],
  ["session"],
  ["snapshot"],
  ["events.ts", "errors.ts"],
  ["context"],
];

const root = dirname(fileURLToPath(import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts") ? [relative(root, path).split(sep).join("/")] : [];
  });
}

function layerOf(file: string): number {
  const head = file.split("/")[0]!;
  const layer = LAYERS.findIndex((names) => names.includes(head));
  if (layer < 0) throw new Error(`${file} is in no layer: add it to LAYERS and to docs/architecture.md`);
  return layer;
}

/** The core modules a file imports (relative specifiers, `type` imports included). */
function importsOf(file: string): string[] {
  const text = readFileSync(join(root, file), "utf8");
  return [...text.matchAll(/(?:from|import)\s+"(\.\.?\/[^"]+)\.js"/g)].map((m) => posix.normalize(posix.join(posix.dirname(file), m[1]!)) + ".ts");
}

describe("core's layout", () => {
  const files = sources(root);

  it("imports only its own layer or lower ones", () => {
    const upward = files.flatMap((file) =>
      importsOf(file)
        .filter((target) => layerOf(target) < layerOf(file))
        .map((target) => `${file} -> ${target}`),
    );
    expect(upward).toEqual([]);
  });

  it("has no import cycles", () => {
    const graph = new Map(files.map((file) => [file, importsOf(file)]));
    const done = new Set<string>();
    const cycles: string[] = [];
    const visit = (file: string, path: string[]): void => {
      if (path.includes(file)) {
        cycles.push([...path.slice(path.indexOf(file)), file].join(" -> "));
        return;
      }
      if (done.has(file)) return;
      for (const next of graph.get(file) ?? []) visit(next, [...path, file]);
      done.add(file);
    };
    for (const file of files) visit(file, []);
    expect(cycles).toEqual([]);
  });
});
