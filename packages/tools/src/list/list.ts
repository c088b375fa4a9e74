import { stat } from "node:fs/promises";
import ignore from "ignore";
import { z } from "zod";
import { FileNotFoundError, InvalidPathError } from "../errors.js";
import { walkFiles } from "../search/walk.js";
import { defineTool, type Tool } from "../tool.js";
import { resolveToolPath, toPosix } from "../workspace-path.js";
import description from "./list.txt?raw";

/** Folders the `list` tool leaves out unless told otherwise: dependencies, build output, caches. */
export const DEFAULT_LIST_IGNORE: readonly string[] = [
  "node_modules", ".git", "dist", "build", "target", "out", ".venv", "venv", "__pycache__", ".mypy_cache",
  ".pytest_cache", ".tox", ".next", ".nuxt", ".svelte-kit", ".turbo", ".cache", ".parcel-cache", "coverage",
  ".idea", ".vscode", "vendor", "bin", "obj", ".gradle", ".zig-cache", "zig-out", "tmp", "temp", "logs",
];

/** Options of the `list` tool. */
export interface ListToolOptions {
  /** Folder names always left out. Default {@link DEFAULT_LIST_IGNORE}. */
  ignore?: readonly string[];
  /** Files listed at most. Default 100. */
  limit?: number;
}

const ListParameters = z.object({
  path: z.string().optional().describe("The folder to list (default: the working directory)"),
  ignore: z.array(z.string()).optional().describe("Extra glob patterns to leave out"),
});

/** Metadata of a `list` result. */
export interface ListMetadata extends Record<string, unknown> {
  /** Files listed. */
  count: number;
  /** True when more files were left out by the limit. */
  truncated: boolean;
}

interface TreeNode {
  dirs: Map<string, TreeNode>;
  files: string[];
}

/** Creates the `list` tool. */
export function createListTool(options: ListToolOptions = {}): Tool<typeof ListParameters, ListMetadata> {
  const skipNames = new Set(options.ignore ?? DEFAULT_LIST_IGNORE);
  const limit = options.limit ?? 100;
  return defineTool({
    name: "list",
    description,
    parameters: ListParameters,
    readOnly: true,
    boundsOutput: true,
    async execute(args, ctx) {
      const target = await resolveToolPath(ctx, args.path ?? ".", { directory: true });
      const info = await stat(target.absolute).catch(() => undefined);
      if (!info) throw new FileNotFoundError(target.absolute);
      if (!info.isDirectory()) throw new InvalidPathError(args.path ?? ".", "not a folder; use read for a file");
      const extra = ignore({ ignorecase: false }).add(args.ignore ?? []);

      const root: TreeNode = { dirs: new Map(), files: [] };
      let count = 0;
      let truncated = false;
      const walk = walkFiles(target.absolute, {
        signal: ctx.abort,
        order: "breadth",
        skipDirectory: (relative, name) => skipNames.has(name) || extra.ignores(`${relative}/`),
      });
      for await (const file of walk) {
        if (extra.ignores(file.relative)) continue;
        if (count === limit) {
          truncated = true;
          break;
        }
        count++;
        const parts = file.relative.split("/");
        let node = root;
        for (const dir of parts.slice(0, -1)) {
          let child = node.dirs.get(dir);
          if (!child) node.dirs.set(dir, (child = { dirs: new Map(), files: [] }));
          node = child;
        }
        node.files.push(parts.at(-1)!);
      }
      const lines = [`${toPosix(target.absolute)}/`, ...render(root, "  ")];
      if (truncated) lines.push("", `(Showing the first ${limit} files; there are more. List a subfolder, or use glob, to see others.)`);
      if (count === 0) lines.push("  (no files)");
      return { title: target.relative, output: lines.join("\n"), metadata: { count, truncated } };
    },
  });
}

function render(node: TreeNode, indent: string): string[] {
  const lines: string[] = [];
  for (const name of [...node.dirs.keys()].sort()) {
    lines.push(`${indent}${name}/`);
    lines.push(...render(node.dirs.get(name)!, `${indent}  `));
  }
  for (const file of [...node.files].sort()) lines.push(`${indent}${file}`);
  return lines;
}

/** The `list` tool with the default ignore list. */
export const listTool = createListTool();
