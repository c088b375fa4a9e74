import path from "node:path";
import { z } from "zod";
import { bundledPackageFile, hostPath, invocation, localBin, localPackageFile, onPath, type Invocation } from "./locate.js";

/** A language server the host adds (or a built-in it replaces). */
export const ServerConfigSchema = z.object({
  /**
   * The program and its arguments, e.g. `["gopls"]` or `["pyright-langserver", "--stdio"]`. A bare name
   * is looked up on PATH, skipping relative entries and entries inside the workspace (never the
   * repository's own copy); an absolute path is used as it is.
   */
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

/**
 * The workspace a server is launched for: its root, and whether the host trusts it. In an untrusted
 * workspace nothing the repository controls is run — no `node_modules` copy of a server or of
 * TypeScript, no PATH entry inside the workspace — and servers that would run its build code
 * (`rust-analyzer`: build scripts, proc macros, `rust-toolchain.toml`) are not started.
 */
export interface LaunchWorkspace {
  /** The workspace root (the agent's `cwd`): nothing above it is searched. */
  cwd: string;
  trusted: boolean;
}

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
  launch(root: string, workspace: LaunchWorkspace): ServerLaunch | undefined;
  /** TypeScript's server answers diagnostics requests through tsserver directly (no waiting for pushes). */
  tsserver?: boolean;
}

const LANGUAGE_IDS: Record<string, string> = {
  ".ts": "typescript", ".mts": "typescript", ".cts": "typescript", ".tsx": "typescriptreact",
  ".js": "javascript", ".mjs": "javascript", ".cjs": "javascript", ".jsx": "javascriptreact",
  ".py": "python", ".pyi": "python", ".go": "go", ".rs": "rust",
};

/**
 * A Node-based server: in a trusted workspace its own copy of `bin` first; else the one installed
 * beside `@lathe/lsp`, else the host's on PATH.
 */
function nodeServer(root: string, workspace: LaunchWorkspace, bin: string, pkg: string, script: string, args: string[]): Invocation | undefined {
  const local = workspace.trusted ? localBin(root, bin, workspace.cwd) : undefined;
  if (local) return invocation(local, args);
  const bundled = bundledPackageFile(pkg, script);
  if (bundled) return invocation(bundled, args);
  const global = onPath(bin, workspace.cwd);
  return global ? invocation(global, args) : undefined;
}

function pathServer(name: string, workspace: LaunchWorkspace, env?: Record<string, string>): ServerLaunch | undefined {
  const found = onPath(name, workspace.cwd);
  if (!found) return undefined;
  return { invocation: { command: found, args: [] }, ...(env ? { env } : {}) };
}

/** The environment an untrusted workspace's server gets on top of the host's: a PATH without workspace entries. */
export function untrustedEnv(workspace: LaunchWorkspace): Record<string, string> | undefined {
  return workspace.trusted ? undefined : { PATH: hostPath(workspace.cwd) };
}

/** The servers Lathe starts on its own (those whose program is found): TypeScript/JavaScript, Python, Go, Rust. */
export const BUILTIN_SERVERS: readonly ServerDefinition[] = [
  {
    id: "typescript",
    extensions: [".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"],
    rootMarkers: ["tsconfig.json", "jsconfig.json", "package.json", "package-lock.json", "pnpm-lock.yaml", "yarn.lock", "bun.lock", "bun.lockb"],
    languageIds: LANGUAGE_IDS,
    tsserver: true,
    launch(root, workspace) {
      const server = nodeServer(root, workspace, "typescript-language-server", "typescript-language-server", "lib/cli.mjs", ["--stdio"]);
      // A trusted workspace's TypeScript first (its version and settings), else the one installed beside
      // us — whose tsserver resolves tsconfig plugins beside itself, never in the repository.
      const local = workspace.trusted ? localPackageFile(root, "typescript", "lib/tsserver.js", workspace.cwd) : undefined;
      const tsserver = local ?? bundledPackageFile("typescript", "lib/tsserver.js");
      if (!server || !tsserver) return undefined;
      const env = untrustedEnv(workspace);
      return {
        invocation: server,
        initializationOptions: { tsserver: { path: tsserver }, preferences: { includeCompletionsForModuleExports: false } },
        ...(env ? { env } : {}),
      };
    },
  },
  {
    id: "pyright",
    extensions: [".py", ".pyi"],
    rootMarkers: ["pyproject.toml", "pyrightconfig.json", "setup.py", "setup.cfg", "requirements.txt", "Pipfile"],
    languageIds: LANGUAGE_IDS,
    launch(root, workspace) {
      const server = nodeServer(root, workspace, "pyright-langserver", "pyright", "langserver.index.js", ["--stdio"]);
      const env = untrustedEnv(workspace);
      return server ? { invocation: server, ...(env ? { env } : {}) } : undefined;
    },
  },
  {
    id: "gopls",
    extensions: [".go"],
    rootMarkers: ["go.work", "go.mod"],
    languageIds: LANGUAGE_IDS,
    // `go.mod`'s toolchain line would make the go command fetch and run another toolchain.
    launch: (_root, workspace) => pathServer("gopls", workspace, workspace.trusted ? undefined : { ...untrustedEnv(workspace), GOTOOLCHAIN: "local" }),
  },
  {
    id: "rust-analyzer",
    extensions: [".rs"],
    rootMarkers: ["Cargo.toml"],
    languageIds: LANGUAGE_IDS,
    // Build scripts, proc macros and a rust-toolchain.toml naming a toolchain path all run the repository's code.
    launch: (_root, workspace) => (workspace.trusted ? pathServer("rust-analyzer", workspace) : undefined),
  },
];

/** A host's {@link ServerConfig} as a definition. */
export function hostServer(id: string, config: ServerConfig): ServerDefinition {
  const [program, ...args] = config.command as [string, ...string[]];
  return {
    id,
    extensions: config.extensions,
    rootMarkers: config.rootMarkers ?? [],
    languageIds: { ...LANGUAGE_IDS, ...config.languageIds },
    launch(_root, workspace) {
      const found = onPath(program, workspace.cwd);
      if (!found) return undefined;
      const launch: ServerLaunch = { invocation: invocation(found, args) };
      if (config.initializationOptions !== undefined) launch.initializationOptions = config.initializationOptions;
      const env = { ...untrustedEnv(workspace), ...config.env };
      if (Object.keys(env).length > 0) launch.env = env;
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
