import { createApplyPatchTool } from "./apply-patch/apply-patch.js";
import { createBashTool, type BashToolOptions } from "./bash/bash.js";
import type { BashSandbox } from "./bash/sandbox.js";
import { createEditTool } from "./edit/edit.js";
import { createGlobTool } from "./glob/glob.js";
import { createGrepTool } from "./grep/grep.js";
import { createListTool, type ListToolOptions } from "./list/list.js";
import { createMultiEditTool } from "./multiedit/multiedit.js";
import { createReadTool, type ReadToolOptions } from "./read/read.js";
import type { RipgrepOption } from "./search/ripgrep.js";
import { createTodoReadTool, createTodoWriteTool } from "./todo/todo.js";
import type { Tool } from "./tool.js";
import type { TruncationLimits } from "./truncate.js";
import { createWebFetchTool, type WebFetchToolOptions } from "./webfetch/webfetch.js";
import { createWriteTool } from "./write/write.js";
import { createSourcegraphTool, type SourcegraphToolOptions } from "./sourcegraph/sourcegraph.js";

/** Options of {@link builtinTools}. */
export interface BuiltinToolsOptions {
  /** Where `glob` and `grep` find ripgrep; see {@link RipgrepOption}. Default: `rg` on `PATH`. */
  ripgrep?: RipgrepOption;
  /** Run `bash` commands in a sandbox; see {@link BashSandbox}. Default: none. */
  sandbox?: BashSandbox;
  /** Output limits of `bash` and `webfetch` (default 2,000 lines / 50 KB). */
  truncation?: Partial<TruncationLimits>;
  /** Results returned at most by `glob` and `grep` (default 100). */
  searchLimit?: number;
  /** Further options of `bash` (shell, timeouts, environment). */
  bash?: Omit<BashToolOptions, "sandbox" | "truncation">;
  /** Options of `read`. */
  read?: ReadToolOptions;
  /** Options of `list`. */
  list?: ListToolOptions;
  /** Options of `webfetch` (size cap, timeouts, fetch). */
  webfetch?: Omit<WebFetchToolOptions, "truncation">;
  /** Options of `sourcegraph` (instance URL, token). */
  sourcegraph?: Omit<SourcegraphToolOptions, "truncation">;
}

/**
 * All of Lathe's built-in coding tools, configured: `read`, `write`, `edit`, `multiedit`,
 * `apply_patch`, `bash`, `glob`, `grep`, `list`, `todowrite`, `todoread`, `webfetch`, `sourcegraph`.
 *
 * @example
 * ```ts
 * const agent = createAgent({ model, tools: builtinTools({ sandbox: { type: "bwrap" } }) });
 * ```
 */
export function builtinTools(options: BuiltinToolsOptions = {}): Tool[] {
  const search = { ripgrep: options.ripgrep, limit: options.searchLimit };
  return [
    createReadTool(options.read),
    createWriteTool(),
    createEditTool(),
    createMultiEditTool(),
    createApplyPatchTool(),
    createBashTool({ ...options.bash, sandbox: options.sandbox, truncation: options.truncation }),
    createGlobTool(search),
    createGrepTool(search),
    createListTool(options.list),
    createTodoWriteTool(),
    createTodoReadTool(),
    createWebFetchTool({ ...options.webfetch, truncation: options.truncation }),
    createSourcegraphTool({ ...options.sourcegraph, truncation: options.truncation }),
  ] as Tool[];
}
