import { join, relative } from "node:path";
import type { LanguageModel } from "ai";
import { z } from "zod";
import { definitionSources, EnablementSchema, isEnabled, parseOption, kindOf, nameProblem, sortedEntries, type DefinitionOrigin, type DefinitionProblem, type Enablement } from "./definition-dirs.js";
import { InvalidInputError } from "../errors.js";
import { DefinitionFileCache, DefinitionFileError, parseFields, readDefinitionFile, splitFrontMatter } from "./front-matter.js";

/** The folders of a project (from the workspace up to its repository root) that hold command files, in order of precedence. */
export const COMMAND_FOLDERS = [".lathe/commands", ".claude/commands", ".opencode/command"] as const;

/** How deep command files are looked for in sub-folders (`git/commit.md` is the command `git:commit`). */
const MAX_DEPTH = 3;

/** A command the host defines in code. */
export interface CommandConfig {
  /** The prompt, with `$ARGUMENTS`, `$1`…`$9`, `@file` references and `` !`cmd` `` blocks. */
  template: string;
  /** What the command does, for the host's menus. */
  description?: string;
  /** The agent that answers (with `subtask`: the subagent that runs it); default the prompt's agent. */
  agent?: string;
  /** The model that answers: a model, or a name from `commands.models` or of a model the agent knows. */
  model?: string | LanguageModel;
  /** Run as a subagent task in a child session; the result comes back to the session as a `task` tool result. */
  subtask?: boolean;
}

/** Where commands come from besides the project's folders; see {@link AgentOptions.commands}. */
export interface CommandsOptions {
  /** More folders of command files (absolute, or relative to the workspace), after the project's, before the user's. */
  paths?: string[];
  /** Commands defined in code, by name. They win over files of the same name. */
  define?: Record<string, CommandConfig>;
  /** Which commands are switched on: all (default), none (`false`) or those matching these name patterns. */
  enabled?: Enablement;
  /** Models that command files may name in their `model` field, by that name. */
  models?: Record<string, LanguageModel>;
}

const CommandsOptionsSchema = z.strictObject({
  paths: z.array(z.string()).optional(),
  define: z.record(z.string(), z.looseObject({ template: z.string() })).optional(),
  enabled: EnablementSchema.optional(),
  models: z.record(z.string(), z.custom<LanguageModel>((m) => typeof m === "object" && m !== null)).optional(),
});

/** The front matter of a command file. Other fields (`argument-hint`, `allowed-tools`…) are allowed and ignored. */
export const CommandFrontMatter = z.object({
  description: z.string().optional(),
  agent: z.string().min(1).optional(),
  model: z.string().min(1).optional(),
  subtask: z.boolean().optional(),
});

/** A command: a prompt template invoked by name with arguments. */
export interface Command {
  name: string;
  description?: string;
  agent?: string;
  model?: string | LanguageModel;
  subtask: boolean;
  template: string;
  /** The file it came from (absent for commands defined in code). */
  path?: string;
  origin: DefinitionOrigin;
}

/** What command discovery found: the commands by name (sorted), and the files skipped or that lost a name clash. */
export interface CommandDiscovery {
  commands: Command[];
  problems: DefinitionProblem[];
}

/**
 * The commands of one agent instance, looked for on every call; each file is parsed again only when
 * its modification time or size changes.
 */
export class CommandCatalog {
  private readonly parsed = new DefinitionFileCache<Command>();
  private readonly defined: Command[];

  /** Throws an `InvalidInputError` for a command defined in code with an invalid name or no template. */
  constructor(
    private readonly options: {
      cwd: string;
      configDir?: string | false | undefined;
      commands?: CommandsOptions | undefined;
    },
  ) {
    parseOption(CommandsOptionsSchema, options.commands ?? {}, "commands");
    this.defined = Object.entries(options.commands?.define ?? {}).map(([name, config]) => {
      const bad = nameProblem(name);
      if (bad) throw new InvalidInputError(`commands.define: ${bad}.`);
      if (typeof config?.template !== "string") throw new InvalidInputError(`commands.define["${name}"] needs a template.`);
      return { ...config, name, subtask: config.subtask === true, origin: "code" as const };
    });
  }

  /**
   * Finds every command: those defined in code, then the project's folders from the workspace up
   * (nearest first; in each directory `.lathe/commands`, `.claude/commands`, `.opencode/command`),
   * then the host's `paths`, then the user's config directory. The first of a name wins.
   */
  discover(): CommandDiscovery {
    const commands = new Map<string, Command>();
    const problems: DefinitionProblem[] = [];
    for (const command of this.defined) commands.set(command.name, command);
    const { cwd, configDir, commands: options } = this.options;
    for (const source of definitionSources(cwd, COMMAND_FOLDERS, options?.paths, configDir, "commands")) {
      for (const file of markdownFiles(source.dir, 0)) {
        const name = commandName(source.dir, file);
        const found = this.parsed.get(file, `${source.origin}:${name}`, () => readCommand(file, name, source.origin));
        if (found instanceof DefinitionFileError) {
          problems.push({ kind: "invalid", path: found.path, message: found.message });
          continue;
        }
        const taken = commands.get(found.name);
        if (taken) {
          const where = taken.path ?? "the host's code";
          problems.push({ kind: "clash", path: file, name: found.name, message: `The command "${found.name}" at ${file} is shadowed by the one in ${where}.` });
          continue;
        }
        commands.set(found.name, found);
      }
    }
    const enabled = this.options.commands?.enabled;
    const list = [...commands.values()].filter((c) => isEnabled(c.name, enabled)).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return { commands: list, problems };
  }
}

/** A command's name from its file: the path under the commands folder without `.md`, sub-folders joined with `:`. */
function commandName(dir: string, file: string): string {
  return relative(dir, file).replace(/\.md$/i, "").split(/[\\/]/).join(":");
}

/** The `.md` files under `dir`, sorted, sub-folders included down to a small depth. */
function markdownFiles(dir: string, depth: number): string[] {
  const out: string[] = [];
  for (const name of sortedEntries(dir)) {
    const path = join(dir, name);
    const kind = kindOf(path);
    if (kind === "file" && /\.md$/i.test(name)) out.push(path);
    else if (kind === "directory" && depth < MAX_DEPTH && !name.startsWith(".")) out.push(...markdownFiles(path, depth + 1));
  }
  return out;
}

/** Reads and checks one command file; throws a {@link DefinitionFileError} for one that cannot be used. */
export function readCommand(file: string, name: string, origin: DefinitionOrigin): Command {
  const bad = nameProblem(name);
  if (bad) throw new DefinitionFileError(file, bad);
  const { data, body } = splitFrontMatter(file, readDefinitionFile(file));
  const fields = parseFields(file, CommandFrontMatter, data);
  return {
    name,
    ...(fields.description !== undefined ? { description: fields.description } : {}),
    ...(fields.agent !== undefined ? { agent: fields.agent } : {}),
    ...(fields.model !== undefined ? { model: fields.model } : {}),
    subtask: fields.subtask === true,
    template: body,
    path: file,
    origin,
  };
}
