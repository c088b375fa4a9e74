import path from "node:path";
import { z } from "zod";
import { bundledPackageFile, invocation, localBin, localPackageFile, onPath, type Invocation } from "./locate.js";

/** A language server the host adds (or a built-in it replaces). */
export const ServerConfigSchema = z.object({
  /** The program and its arguments, e.g. `["gopls"]` or `["pyright-langserver", "--stdio"]`; a bare name is looked up on PATH. */
  command: z.array(z.string().min(1)).min(1),
  /** Extensions the server handles, with the dot: `[".go"]`. */
  extensions: z.array(z.string().regex(/^\./, "extensions start with a dot")).min(1),
  /** Files or folders marking a workspace root (the nearest folder holding one is the server's root); default the workspace. */
  rootMarkers: z.array(z.string().min(1)).optional(),
  /** Sent as `initializationOptions` of the `initialize` request. */
  initializationOptions: z.unknown().optional(),
  /** Extra environment variables of the server process. */
  env: z.record(z.string(), z.string()).optional(),
  /** LSP language ids by extension (default: known ones, else the extension without its dot). */
  languageIds: z.record(z.string(), z.string()).optional(),
});

/** A language server the host adds; see {@link ServerConfigSchema}. */
export type ServerConfig = z.infer<typeof ServerConfigSchema>;

/** A server ready to start for one root: how to run it and what to tell it. */
export interface ServerLaunch {
  invocation: Invocation;
  initializationOptions?: unknown;
  env?: Record<string, string>;
}

/** A server Lathe knows: which files, which roots, how to launch it for a root (`undefined`: not installed). */
export interface ServerDefinition {
  id: string;
  extensions: readonly string[];
  rootMarkers: readonly string[];
  languageIds: Readonly<Record<string, string>>;
  launch(root: string): ServerLaunch | undefined;
  /** TypeScript's server answers diagnostics requests through tsserver directly (no waiting for pushes). */
  tsserver?: boolean;
}

const LANGUAGE_IDS: Record<string, string> = {
  ".ts": "typescript", ".mts": "typescript", ".cts": "typescript", ".tsx": "typescriptreact",
  ".js": "javascript", ".mjs": "javascript", ".cjs": "javascript", ".jsx": "javascriptreact",
  ".py": "python", ".pyi": "python", ".go": "go", ".rs": "rust",
};

/** A Node-based server: the workspace's copy of `bin`, else the one installed beside `@lathe/lsp`. */
function nodeServer(root: string, bin: string, pkg: string, script: string, args: string[]): Invocation | undefined {
  const local = localBin(root, bin);
  if (local) return invocation(local, args);
  const bundled = bundledPackageFile(pkg, script);
  if (bundled) return invocation(bundled, args);
  const global = onPath(bin);
  return global ? invocation(global, args) : undefined;
}

function pathServer(name: string, args: string[] = []): ServerLaunch | undefined {
  const found = onPath(name);
  return found ? { invocation: { command: found, args } } : undefined;
}

/** The servers Lathe starts on its own (those whose program is found): TypeScript/JavaScript, Python, Go, Rust. */
export const BUILTIN_SERVERS: readonly ServerDefinition[] = [
  {
    id: "typescript",
    extensions: [".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"],
    rootMarkers: ["tsconfig.json", "jsconfig.json", "package.json", "package-lock.json", "pnpm-lock.yaml", "yarn.lock", "bun.lock", "bun.lockb"],
    languageIds: LANGUAGE_IDS,
    tsserver: true,
    launch(root) {
      const server = nodeServer(root, "typescript-language-server", "typescript-language-server", "lib/cli.mjs", ["--stdio"]);
      // The workspace's TypeScript first (its version and settings), else the one installed beside us.
      const tsserver = localPackageFile(root, "typescript", "lib/tsserver.js") ?? bundledPackageFile("typescript", "lib/tsserver.js");
      if (!server || !tsserver) return undefined;
      return { invocation: server, initializationOptions: { tsserver: { path: tsserver }, preferences: { includeCompletionsForModuleExports: false } } };
    },
  },
  {
    id: "pyright",
    extensions: [".py", ".pyi"],
    rootMarkers: ["pyproject.toml", "pyrightconfig.json", "setup.py", "setup.cfg", "requirements.txt", "Pipfile"],
    languageIds: LANGUAGE_IDS,
    launch(root) {
      const server = nodeServer(root, "pyright-langserver", "pyright", "langserver.index.js", ["--stdio"]);
      return server ? { invocation: server } : undefined;
    },
  },
  { id: "gopls", extensions: [".go"], rootMarkers: ["go.work", "go.mod"], languageIds: LANGUAGE_IDS, launch: () => pathServer("gopls") },
  { id: "rust-analyzer", extensions: [".rs"], rootMarkers: ["Cargo.toml"], languageIds: LANGUAGE_IDS, launch: () => pathServer("rust-analyzer") },
];

/** A host's {@link ServerConfig} as a definition. */
export function hostServer(id: string, config: ServerConfig): ServerDefinition {
  const [program, ...args] = config.command as [string, ...string[]];
  return {
    id,
    extensions: config.extensions,
    rootMarkers: config.rootMarkers ?? [],
    languageIds: { ...LANGUAGE_IDS, ...config.languageIds },
    launch(root) {
      const found = path.isAbsolute(program) ? program : (localBin(root, program) ?? onPath(program));
      if (!found) return undefined;
      const launch: ServerLaunch = { invocation: invocation(found, args) };
      if (config.initializationOptions !== undefined) launch.initializationOptions = config.initializationOptions;
      if (config.env) launch.env = config.env;
      return launch;
    },
  };
}

/** The built-ins, minus those the host switches off (`false`), with the host's servers replacing or joining them. */
export function serverDefinitions(host: Record<string, ServerConfig | false> = {}): ServerDefinition[] {
  const byId = new Map(BUILTIN_SERVERS.map((s) => [s.id, s]));
  for (const [id, config] of Object.entries(host)) {
    if (config === false) byId.delete(id);
    else byId.set(id, hostServer(id, ServerConfigSchema.parse(config)));
  }
  return [...byId.values()];
}

/** The language id of `file` for `server`. */
export function languageId(server: ServerDefinition, file: string): string {
  const ext = path.extname(file).toLowerCase();
  return server.languageIds[ext] ?? ext.slice(1);
}
