import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { hostPath, invocation, localBin, nearestRoot, onPath, type Invocation } from "./locate.js";

/** A formatter command the host adds for some extensions: it reads the file on stdin and writes the formatted text to stdout. */
export const FormatterConfigSchema = z.object({
  /**
   * The program and its arguments; `$FILE` in an argument becomes the file's absolute path. A bare
   * name is looked up on PATH, skipping relative entries and entries inside the workspace; it runs in
   * trusted and untrusted workspaces alike (the host chose it).
   */
  command: z.array(z.string().min(1)).min(1),
  /** Extensions it formats, with the dot. */
  extensions: z.array(z.string().regex(/^\./, "extensions start with a dot")).min(1),
});

/** A host formatter; see {@link FormatterConfigSchema}. */
export type FormatterConfig = z.infer<typeof FormatterConfigSchema>;

/** A formatter that applies to a file: its name, how to run it, and the environment it needs on top of the host's. */
export interface FormatterRun {
  name: string;
  invocation: Invocation;
  env?: Record<string, string>;
}

interface BuiltinFormatter {
  name: string;
  extensions: readonly string[];
  /**
   * Whether it may run in an untrusted workspace: its program then comes from the host's PATH and
   * its configuration runs no code (prettier's `.prettierrc.cjs`, `prettier.config.*` and plugins do;
   * rustfmt's `rust-toolchain.toml` can name a toolchain inside the repository).
   */
  untrusted: boolean;
  /** How to run it on `file` in workspace `cwd`, when the project is set up for it. */
  detect(file: string, cwd: string, trusted: boolean): Invocation | undefined;
}

const PRETTIER_CONFIGS = [".prettierrc", ".prettierrc.json", ".prettierrc.yaml", ".prettierrc.yml", ".prettierrc.json5", ".prettierrc.js", ".prettierrc.cjs", ".prettierrc.mjs", ".prettierrc.toml", "prettier.config.js", "prettier.config.cjs", "prettier.config.mjs"];

function readText(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return "";
  }
}

/** The nearest folder from `file` up to `cwd` whose `pyproject.toml` has `[tool.<name>]`, or with one of `configs`. */
function pythonConfigured(file: string, cwd: string, tool: string, configs: string[]): boolean {
  const root = nearestRoot(path.dirname(file), ["pyproject.toml", ...configs], cwd);
  if (!root) return false;
  if (configs.some((c) => existsSync(path.join(root, c)))) return true;
  return new RegExp(`^\\[tool\\.${tool}[\\].]`, "m").test(readText(path.join(root, "pyproject.toml")));
}

/** A Python tool: in a trusted workspace the nearest virtualenv's copy (up to the workspace root) first, else the host's on PATH. */
function pythonTool(name: string, file: string, cwd: string, trusted: boolean): string | undefined {
  if (trusted) {
    const root = path.resolve(cwd);
    const inside = !path.relative(root, file).startsWith("..");
    for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
      for (const venv of [".venv", "venv"]) {
        const candidate = path.join(dir, venv, "bin", name);
        if (existsSync(candidate)) return candidate;
      }
      if (!inside || dir === root || path.dirname(dir) === dir) break;
    }
  }
  return onPath(name, cwd);
}

/** Formatters Lathe runs when the project has them set up: prettier, ruff format, black, gofmt, rustfmt. */
export const BUILTIN_FORMATTERS: readonly BuiltinFormatter[] = [
  {
    name: "prettier",
    extensions: [".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts", ".json", ".jsonc", ".css", ".scss", ".less", ".html", ".vue", ".md", ".mdx", ".yaml", ".yml", ".graphql"],
    untrusted: false,
    detect(file, cwd) {
      const configured = nearestRoot(path.dirname(file), PRETTIER_CONFIGS, cwd) ??
        nearestPackageWith(path.dirname(file), cwd, "prettier");
      if (!configured) return undefined;
      const bin = localBin(configured, "prettier", cwd);
      return bin ? invocation(bin, ["--stdin-filepath", file]) : undefined;
    },
  },
  {
    name: "ruff",
    extensions: [".py", ".pyi"],
    untrusted: true,
    detect(file, cwd, trusted) {
      if (!pythonConfigured(file, cwd, "ruff", ["ruff.toml", ".ruff.toml"])) return undefined;
      const bin = pythonTool("ruff", file, cwd, trusted);
      return bin ? { command: bin, args: ["format", "--stdin-filename", file, "-"] } : undefined;
    },
  },
  {
    name: "black",
    extensions: [".py", ".pyi"],
    untrusted: true,
    detect(file, cwd, trusted) {
      if (!pythonConfigured(file, cwd, "black", [])) return undefined;
      const bin = pythonTool("black", file, cwd, trusted);
      return bin ? { command: bin, args: ["--quiet", "--stdin-filename", file, "-"] } : undefined;
    },
  },
  {
    name: "gofmt",
    extensions: [".go"],
    untrusted: true,
    detect(file, cwd) {
      if (!nearestRoot(path.dirname(file), ["go.mod", "go.work"], cwd)) return undefined;
      const bin = onPath("gofmt", cwd);
      return bin ? { command: bin, args: [] } : undefined;
    },
  },
  {
    name: "rustfmt",
    extensions: [".rs"],
    untrusted: false,
    detect(file, cwd) {
      const root = nearestRoot(path.dirname(file), ["Cargo.toml", "rustfmt.toml", ".rustfmt.toml"], cwd);
      if (!root) return undefined;
      const bin = onPath("rustfmt", cwd);
      const edition = /^\s*edition\s*=\s*"(\d{4})"/m.exec(readText(path.join(root, "Cargo.toml")))?.[1] ?? "2021";
      return bin ? { command: bin, args: ["--emit", "stdout", "--edition", edition] } : undefined;
    },
  },
];

// A package.json with a "prettier" key configures prettier too.
function nearestPackageWith(from: string, cwd: string, key: string): string | undefined {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const text = readText(path.join(dir, "package.json"));
    if (text) {
      try {
        if (key in (JSON.parse(text) as Record<string, unknown>)) return dir;
      } catch {
        // Not JSON: not configured here.
      }
    }
    if (dir === path.resolve(cwd) || path.dirname(dir) === dir) return undefined;
  }
}

/**
 * The formatter for `file`: the host's command for its extension first, else the first built-in the
 * project is set up for. `host` switches built-ins off by name (`false`) or adds commands. In an
 * untrusted workspace (`trusted` false) only built-ins whose program and configuration the repository
 * cannot make run its code are considered, and every formatter gets a PATH without workspace entries.
 */
export function formatterFor(file: string, cwd: string, host: Record<string, FormatterConfig | false>, trusted: boolean): FormatterRun | undefined {
  const ext = path.extname(file).toLowerCase();
  const env = trusted ? {} : { env: { PATH: hostPath(cwd) } };
  for (const [name, config] of Object.entries(host)) {
    if (config === false || !config.extensions.includes(ext)) continue;
    const [program, ...args] = config.command.map((a) => a.replaceAll("$FILE", file)) as [string, ...string[]];
    const found = onPath(program, cwd);
    if (found) return { name, invocation: invocation(found, args), ...env };
  }
  for (const builtin of BUILTIN_FORMATTERS) {
    if (host[builtin.name] === false || !builtin.extensions.includes(ext) || (!trusted && !builtin.untrusted)) continue;
    const run = builtin.detect(file, cwd, trusted);
    if (run) return { name: builtin.name, invocation: run, ...env };
  }
  return undefined;
}
