import type { CacheSetting } from "./context/cache-options.js";
import type { FlexibleSchema, LanguageModel } from "ai";
import type { Tracer } from "@opentelemetry/api";
import type { Limits } from "@lathe/message";
import type { Storage } from "@lathe/storage";
import type { Diagnostics, FileAccess, Tool } from "@lathe/tools";
import type { PermissionRules } from "./agents/agent-permissions.js";
import type { ApproveFn, HandOffReply } from "./agents/approval.js";
import type { AgentConfig } from "./agents/registry.js";
import type { Hooks } from "./agents/hooks.js";
import type { ModelFacts, ModelPrice } from "./context/model-facts.js";
import type { PermissionMode } from "@lathe/permission";
import type { SkillsOptions } from "./agents/skill-catalog.js";
import type { CommandsOptions } from "./agents/command-catalog.js";
import type { WorkspaceTrust } from "./agents/workspace-trust.js";
import type { EventLogOptions } from "./session/event-log.js";

export type { ApproveFn, HandOffReply, HandedOffReply, PermissionReply, PermissionRequest } from "./agents/approval.js";

/** How failed model requests are retried. */
export interface RetryOptions {
  /**
   * Retries of one request after a retryable failure (rate limit, overload, 5xx, lost connection);
   * default 4 (waits of 2, 4, 8 and 16 s without a `retry-after` header). `0` turns retries off.
   */
  maxRetries?: number;
  /**
   * The longest wait a provider's `retry-after` may ask for, in ms; default 120,000. A longer one
   * (a spent quota, not a passing limit) is not waited out: the turn ends with the error.
   */
  maxDelayMs?: number;
}

/** What happens when a session outgrows the model's context window. */
export interface CompactionOptions {
  /**
   * Compact on its own when the context overflows (or the provider says it did); default true.
   * `agent.sessions.compact()` works either way.
   */
  auto?: boolean;
  /** Clear old tool outputs before summarising, when that frees enough; default true. */
  prune?: boolean;
}

/**
 * OpenTelemetry traces of the agent's work; see {@link AgentOptions.telemetry}.
 */
export interface TelemetryOptions {
  /** The tracer spans are made with, e.g. `trace.getTracer("my-app")` of `@opentelemetry/api`. */
  tracer: Tracer;
  /**
   * Record contents on spans: the prompt and the answer on `lathe.turn`, tool arguments and results
   * on `lathe.tool`, and the AI SDK's recorded inputs and outputs on its spans. Default false: spans
   * then carry names, ids, counts, durations and errors only.
   */
  recordContent?: boolean;
}

/** Options of {@link createAgent}. */
export interface AgentOptions {
  /** The model: any AI SDK language model (specification v2, v3 or v4). */
  model: LanguageModel;
  /** What a prompt sent to a busy session does unless it says otherwise; default `"reject"`. See {@link WhileBusy}. */
  whileBusy?: WhileBusy;
  /** The workspace directory; default `process.cwd()`. */
  cwd?: string;
  /**
   * Whether the host trusts the workspace at `cwd`; default `"untrusted"`. Ask the user once per
   * workspace, as editors do, before passing `"trusted"`. In an untrusted workspace nothing the
   * repository controls runs or is loaded without an ask: formatters and language servers (`lsp`)
   * come from the host's PATH or Lathe's own dependencies — never the repository's `node_modules`,
   * virtualenvs, or configs that execute code (prettier's JS configs and plugins; rust-analyzer and
   * rustfmt do not run) — and a project command's front matter cannot pick the agent that answers
   * it. `"trusted"` lets the repository's own formatter and servers run. See docs/permissions.md
   * ("A hostile repository").
   */
  trust?: WorkspaceTrust;
  /**
   * Whether a prompt's file parts may name local files by `file:` URL; default false: such a prompt
   * is refused with a `FileUrlRefusedError` before anything is stored. When true, each file is read
   * only after a `read` ask (and an `external_directory` ask outside the workspace) for its real
   * path, symlinks resolved — as the `read` tool would. A host relaying remote clients' prompts
   * should leave it off.
   */
  fileUrls?: boolean;
  /** Where sessions live; default a new `MemoryStorage`. */
  storage?: Storage;
  /** Answers approval requests inline; see {@link ApproveFn}. Without it, requests wait for `agent.permissions.reply()`. */
  approve?: ApproveFn;
  /**
   * Where answers go that no run of this agent waits for (a turn another process left waiting for
   * approval): with `@lathe/queue`, `queue.handOffReply` enqueues the turn's resume on any worker.
   * Without it, the answer waits here for `agent.resume()`.
   */
  handOffReply?: HandOffReply;
  /**
   * The host's permission rules, over the built-in defaults of each agent: the OpenCode-style config
   * (`{ bash: { "*": "ask", "git status*": "allow" }, edit: { "*.env": "deny" } }`, last match wins)
   * or a list of `{ permission, pattern, action }` rules.
   */
  permission?: PermissionRules;
  /**
   * Agents by name: override a built-in (`build`, `plan`, `explore`, `general`) or add your own (then
   * `description` is required). Rules merge in this order, the last match winning: Lathe's defaults →
   * the built-in agent's rules → `permission` → the agent's `permission` here.
   */
  agents?: Record<string, AgentConfig>;
  /**
   * Things the agent closes when it closes, after its runs have stopped — e.g. an MCP tool source
   * (`const mcp = mcpTools(…); createAgent({ tools: await mcp.tools(), resources: [mcp] })`).
   */
  resources?: Array<{ close(): unknown }>;
  /**
   * Workspace snapshots (a shadow git repository in `dataDir`, apart from the workspace's own `.git`):
   * each step records the files it changed, so `sessions.revert`, `unrevert` and `diff` work — also
   * for what shell commands changed. Default on; `false` turns them off.
   */
  snapshots?: boolean;
  /** Typed hooks into the loop; see {@link Hooks}. */
  hooks?: Hooks;
  /**
   * More instruction files for the system prompt (absolute, or relative to `cwd`), after the
   * `AGENTS.md`, `CLAUDE.md` and `CONTEXT.md` files found from the workspace up to its repository root.
   */
  instructionFiles?: string[];
  /**
   * Language servers and formatters (`createLsp()` of `@lathe/lsp`): the file-changing tools then
   * format what they write and append the errors they introduced to their results, the read-only
   * `diagnostics` tool is offered, and the system prompt says so. `agent.close()` closes it.
   */
  lsp?: Diagnostics;
  /**
   * The tools the model may call; default Lathe's built-in coding tools (`builtinTools()`). Pass `[]`
   * for none at all. The `task` tool for subagents comes on top of any other list passed, for every
   * agent that may start subagents; switch it off per agent (`agents: { build: { tools: { task: false } } }`)
   * or with a rule (`permission: { task: "deny" }`).
   */
  tools?: Tool[];
  /**
   * Where Lathe keeps its own files: per-session data (full text of truncated tool outputs) and
   * workspace snapshots. Default `$XDG_DATA_HOME/lathe` (or `~/.local/share/lathe`).
   */
  dataDir?: string;
  /**
   * Exactly the environment of the commands the model runs (`bash`). Default: the host's
   * environment without credentials (`*_API_KEY`, `*_TOKEN`, `*_SECRET*`, `*PASSWORD*`, `AWS_*`…;
   * see `CREDENTIAL_ENV_NAMES` in `@lathe/tools`).
   */
  shellEnv?: Record<string, string>;
  /**
   * Where `read`, `write`, `edit` and `multiedit` read and write text instead of the disk — an
   * editor's buffers, so the agent sees unsaved changes and the editor tracks the agent's edits
   * (`@lathe/acp` passes the editor's). Permission checks are the same; see `FileAccess` in
   * `@lathe/tools`. Default: the disk.
   */
  files?: FileAccess;
  /** Extra system instructions from the host, added after Lathe's own. */
  instructions?: string | string[];
  /** The most steps (model requests) one prompt may take; the last one must answer in text. Default unlimited. */
  maxSteps?: number;
  /**
   * Facts of the models used — context window, output limit, prices — keyed by model id or
   * `provider/model id`, over Lathe's built-in table of widely used models ({@link BUILTIN_MODELS},
   * dated {@link BUILTIN_MODELS_DATE}). Without a context window a model's overflow is only noticed
   * when the provider reports it; without a price its cost is 0.
   */
  models?: Record<string, ModelFacts>;
  /** Prices per model, keyed like `models`; shorthand for `models[id].price`, which it overrides. */
  prices?: Record<string, ModelPrice>;
  /**
   * Budgets of every session (a session's own `limits` override them field by field); see
   * {@link Limits}. A prompt may set tighter ones of its own.
   */
  limits?: Limits;
  /** Retries of failed model requests; see {@link RetryOptions}. */
  retry?: RetryOptions;
  /**
   * Compaction of long sessions; see {@link CompactionOptions}. The summary is written by the hidden
   * `compaction` agent: give it a cheaper model with `agents: { compaction: { model } }`. Session
   * titles likewise come from `agents: { title: { model } }` when given (else the first prompt's first line).
   */
  compaction?: CompactionOptions;
  /** Sampling temperature passed to the model. */
  temperature?: number;
  /** Nucleus sampling passed to the model. */
  topP?: number;
  /** The most tokens one step may write. */
  maxOutputTokens?: number;
  /** Provider-specific options passed to every request; they win over what `cache` would set. */
  providerOptions?: Record<string, Record<string, unknown>>;
  /**
   * Prompt caching, on by default: each provider is asked to cache the prompt prefix the way it
   * takes it — Anthropic (direct, Bedrock, Vertex, OpenRouter) breakpoints on the tools, the stable
   * system prompt and the newest messages; OpenAI a `promptCacheKey` per session; Google and unknown
   * providers a stable prefix. `false` turns it off, `"1h"` uses Anthropic's one-hour TTL (for idle
   * gaps over 5 minutes); see {@link CacheSetting}. An agent's and a prompt's own `cache` win field
   * by field. Docs: docs/long-sessions.md, "Prompt caching".
   */
  cache?: CacheSetting;
  /** Extra HTTP headers sent with every request. */
  headers?: Record<string, string>;
  /** How long a session lease lasts before it must be renewed, in ms; default 30,000. */
  leaseTtlMs?: number;
  /** The longest a streamed part waits before it is written to storage, in ms; default 250. */
  flushIntervalMs?: number;
  /**
   * How many events per session the agent keeps in memory so that clients can rejoin a run
   * (`agent.sessions.stream`, `agent.sessions.rejoin`); see {@link EventLogOptions}.
   */
  eventLog?: EventLogOptions;
  /** How many read-only tool calls of one step may run at once; default 8. */
  maxParallelTools?: number;
  /**
   * The permission mode of every session that sets none (`default`, `acceptEdits`, `plan`, `bypass`);
   * see {@link PermissionMode}. Default `default`.
   */
  mode?: PermissionMode;
  /**
   * Skills (folders with a `SKILL.md`) beyond those of the project and the user's config directory,
   * and which are switched on; see {@link SkillsOptions}.
   */
  skills?: SkillsOptions;
  /** Command folders beyond the project's and the user's, commands defined in code, and which are switched on; see {@link CommandsOptions}. */
  commands?: CommandsOptions;
  /**
   * The user's config directory, where `skills/` and `commands/` are looked for; default
   * `$XDG_CONFIG_HOME/lathe` or `~/.config/lathe`. `false` looks in none.
   */
  configDir?: string | false;
  /**
   * OpenTelemetry traces: `lathe.turn` → `lathe.step` → the AI SDK's provider spans, with
   * `lathe.tool`, `lathe.permission`, `lathe.compaction` and `lathe.subagent` (a child session's
   * turn under its task call). Attributes follow the GenAI semantic conventions (`gen_ai.*`) where
   * they apply. Off by default, at no cost.
   */
  telemetry?: TelemetryOptions;
}

/** Input of a prompt: plain text, or parts. */
export type PromptInput = string | PromptPartInput[];

/** A part of a structured prompt. */
export type PromptPartInput =
  | { type: "text"; text: string; synthetic?: boolean }
  | { type: "file"; url: string; mime: string; filename?: string }
  /** A task handed to a subagent on the user's behalf: the turn starts it with the task tool (commands with `subtask: true` send one). */
  | { type: "subtask"; agent: string; description: string; prompt: string };

/**
 * Options of one prompt. `OUTPUT` is the type of the structured answer asked for with `output`
 * (inferred from the schema).
 */
export interface PromptOptions<OUTPUT = unknown> {
  /** The agent that answers; default `build`. */
  agent?: string;
  /** Extra system instructions for this prompt. */
  system?: string;
  /** Aborts the run, like {@link Run.abort}. */
  signal?: AbortSignal;
  /** The most steps this prompt may take; overrides the agent's `maxSteps`. */
  maxSteps?: number;
  /** Budgets of this prompt alone (its subagents' work included), on top of the session's. */
  limits?: Limits;
  /** The permission mode of this prompt alone, over the session's and the agent's; see {@link PermissionMode}. */
  mode?: PermissionMode;
  /** The model that answers this prompt, instead of the agent's. */
  model?: LanguageModel;
  /** Prompt caching for this prompt, over the agent's and `createAgent`'s, field by field; see {@link CacheSetting}. */
  cache?: CacheSetting;
  /**
   * Ask for a structured answer: a Zod schema (or a Standard Schema, or the AI SDK's `jsonSchema()`).
   * The turn works as usual, tools included; its final answer (the step that calls no tool) must be
   * JSON matching the schema. Each step asks the provider for it through the AI SDK's `Output.object`
   * (a JSON-schema response format where the provider has one) and the system prompt states the
   * schema, for providers without one. The awaited run's `output` is the validated value, typed as the
   * schema's type, also stored as the message's `output`. An answer that does not validate is fed
   * back to the model up to `outputRepairs` times; then the run resolves with an
   * `OutputValidationError` on `info.error`.
   */
  output?: FlexibleSchema<OUTPUT>;
  /** How many times an answer that does not match `output` is fed back for repair; default 2. */
  outputRepairs?: number;
  /**
   * The id the prompt's user message is stored under (made with `createId("message")`), so a host
   * that may deliver a prompt twice (a queue) can tell whether it is stored already. A prompt whose
   * id the session already has is refused with `InvalidInputError`. A steered prompt
   * (`whileBusy: "steer"`) may be given one too (it is stored at once); a queued one may not (its
   * message gets its id when its turn comes, so ids keep the session's order).
   */
  messageID?: string;
  /**
   * What this prompt does when the session already runs a turn in this agent; the agent's
   * `whileBusy` when unset (which is `"reject"` unless the host set it). See {@link WhileBusy}.
   */
  whileBusy?: WhileBusy;
}

/**
 * What a prompt sent to a busy session does:
 * - `"reject"`: `agent.prompt` throws `SessionBusyError` (the default);
 * - `"steer"`: the message joins the running turn — stored at once, carried by the turn's next model
 *   request as the newest user message (after the current step's tool results), and the turn goes on
 *   in a new assistant message answering it; its run resolves with that turn;
 * - `"queue"`: the message is stored on the session's queue and gets its own turn right after the
 *   running one (and after messages queued before it); its run resolves with that turn.
 *
 * Either way `run.stored` resolves once the message is stored, and it survives a crash: after a
 * restart `agent.resume` answers it once. A steered or queued run that is aborted before its message
 * is answered drops that message only (the run rejects with `PromptDroppedError`).
 */
export type WhileBusy = "reject" | "steer" | "queue";
