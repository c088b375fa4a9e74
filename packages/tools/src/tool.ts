import type { Todo, ToolAttachment } from "@lathe/message";
import type { z } from "zod";
import type { Diagnostics } from "./diagnostics.js";
import type { FileAccess } from "./file-access.js";
import type { childEnvironment } from "./env-policy.js";

/** What a tool asks the permission engine before doing something. */
export interface ToolPermissionRequest {
  /** The permission asked, e.g. `edit`, `bash`, `external_directory`, `webfetch`. */
  permission: string;
  /** What the call touches: relative paths for edits, the commands for bash, the URL for webfetch. */
  patterns: string[];
  /**
   * Per pattern, other spellings of it (a shell command as written, with its path…) that deny and ask
   * rules are checked against too; allow rules only see the pattern. Passed to the permission engine.
   */
  variants?: string[][];
  /** Broader patterns a user may approve once and for all (`src/*`, `git commit *`); default `patterns`. */
  always?: string[];
  /** Facts for the host's approval prompt, e.g. the diff of an edit. */
  metadata?: Record<string, unknown>;
  /**
   * The request could not be analysed safely (e.g. a bash command with `eval`): ask even where allow
   * rules or earlier approvals match (deny rules still apply). Passed through to the permission engine.
   */
  opaque?: boolean;
}

/** What {@link ToolContext.check} decides: the most restrictive outcome over the request's patterns. */
export type PermissionCheck = "allow" | "deny" | "ask";

/** Live progress a running tool reports to the host (shown in UIs, stored on the running tool part). */
export interface ToolProgress {
  title?: string;
  metadata?: Record<string, unknown>;
}

/** Events a tool emits for the host beside its result. */
export type ToolEvent =
  | { type: "file.edited"; file: string }
  | { type: "todo.updated"; todos: Todo[] };

/**
 * Everything a tool gets to do its job: who is calling, where, how to ask permission, how to report
 * progress, and a signal that fires when the run is aborted.
 */
export interface ToolContext {
  sessionID: string;
  messageID: string;
  callID: string;
  /** Name of the agent whose model made the call. */
  agent: string;
  /** The workspace directory; relative paths resolve against it. */
  cwd: string;
  /** Fires when the run is aborted; long work must stop promptly. */
  abort: AbortSignal;
  /**
   * Asks permission. Resolves when allowed; rejects when denied or rejected (the loop turns that into
   * the tool's error result, or stops the turn, as the permission engine decides).
   */
  ask(request: ToolPermissionRequest): Promise<void>;
  /**
   * Decides a request by the rules and the session's approvals alone, asking no one and recording
   * nothing: `allow`, `deny`, or `ask` (a call would have to ask). Search tools use it to leave out
   * files the model may not read without asking (`grep` withholds such files' lines). Supplied by
   * the agent loop; when absent, no file is withheld.
   */
  check?(request: Pick<ToolPermissionRequest, "permission" | "patterns">): PermissionCheck;
  /** Reports live progress; cheap to call often. */
  metadata(update: ToolProgress): void;
  /** Emits an event to the host. */
  emit(event: ToolEvent): void;
  /**
   * Per-session state that tools keep on the agent instance (e.g. what the session has read), keyed by
   * a name of the tool's choosing. Lives as long as the agent; never shared between agents.
   */
  state<T>(key: string, init: () => T): T;
  /**
   * A directory private to this session where tools keep files the model may read later (the full
   * text of truncated outputs). The host creates nothing up front and removes it with the session.
   * When absent, tools use `<os.tmpdir()>/lathe/<sessionID>` (see {@link sessionDataDir}).
   * The `read` tool may read inside it without an `external_directory` ask.
   */
  dataDir?: string;
  /**
   * The session's todo list, stored with the session (`Session.todos`). When absent, the todo tools
   * keep the list in {@link ToolContext.state} for the life of the agent instance.
   */
  todos?: TodoStore;
  /**
   * Language servers and formatters (e.g. `@lathe/lsp`'s `createLsp()`), when the agent has them: the
   * file-changing tools format what they write and report the errors they introduced.
   */
  diagnostics?: Diagnostics;
  /**
   * Where `read`, `write`, `edit` and `multiedit` read and write text instead of the disk (an
   * editor's buffers); see {@link FileAccess}. When absent, the disk.
   */
  files?: FileAccess;
  /**
   * The exact environment of the processes the model starts (`bash` commands), set by the host
   * (`createAgent({ shellEnv })`). When absent, they get the host's environment without credentials
   * (see {@link childEnvironment}).
   */
  shellEnv?: Record<string, string>;
}

/** Reads and replaces a session's stored todo list. Supplied by the loop through {@link ToolContext.todos}. */
export interface TodoStore {
  get(): Promise<Todo[]>;
  set(todos: Todo[]): Promise<void>;
}

/** What a tool returns: a title for UIs, the output the model reads, metadata for UIs, and files. */
export interface ToolResult<M extends Record<string, unknown> = Record<string, unknown>> {
  title: string;
  output: string;
  metadata?: M;
  /** Files the model should see with the output (images, PDFs). */
  attachments?: ToolAttachment[];
}

/** A tool the agent can call. Made with {@link defineTool}. */
export interface Tool<P extends z.ZodType = z.ZodType, M extends Record<string, unknown> = Record<string, unknown>> {
  /** The name the model calls it by: letters, digits, `_` and `-`. */
  name: string;
  /** What the model reads to decide when and how to call it. */
  description: string;
  /** The input schema; the model's input is validated against it before `execute`. */
  parameters: P;
  /**
   * True when the tool only reads: read-only calls of one step may run in parallel, the others run
   * one after another in the order the model made them.
   */
  readOnly?: boolean;
  /**
   * True when the tool keeps its own output within limits, cutting it its own way and saying so in
   * the output (bash keeps the tail, read says where to continue). The loop then returns the output
   * as is; other tools' outputs are capped by the loop, keeping their head and tail.
   */
  boundsOutput?: boolean;
  /** Does the work. A thrown error becomes the tool's error result that the model sees. */
  execute(args: z.infer<P>, ctx: ToolContext): Promise<ToolResult<M>>;
}

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/** Thrown by {@link defineTool} for a definition that cannot work. */
export class InvalidToolDefinitionError extends Error {
  override readonly name = "InvalidToolDefinitionError";
  constructor(
    readonly toolName: string,
    reason: string,
  ) {
    super(`Invalid tool "${toolName}": ${reason}`);
  }
}

/**
 * Defines a tool. Checks the definition once, up front, so a mistake shows at start-up rather than
 * when the model first calls the tool.
 *
 * @example
 * ```ts
 * const hello = defineTool({
 *   name: "hello",
 *   description: "Greets someone.",
 *   parameters: z.object({ name: z.string() }),
 *   async execute({ name }) {
 *     return { title: name, output: `Hello, ${name}!` };
 *   },
 * });
 * ```
 */
export function defineTool<P extends z.ZodType, M extends Record<string, unknown> = Record<string, unknown>>(
  tool: Tool<P, M>,
): Tool<P, M> {
  if (!TOOL_NAME.test(tool.name)) throw new InvalidToolDefinitionError(tool.name, "names use 1–64 letters, digits, _ or -");
  if (!tool.description.trim()) throw new InvalidToolDefinitionError(tool.name, "the description is empty");
  if (typeof tool.execute !== "function") throw new InvalidToolDefinitionError(tool.name, "execute is not a function");
  return tool;
}
