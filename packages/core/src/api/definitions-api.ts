import type { Command, CommandCatalog } from "../agents/command-catalog.js";
import type { DefinitionProblem } from "../agents/definition-dirs.js";
import type { Skill, SkillCatalog } from "../agents/skill-catalog.js";

/** The skills of an {@link Agent}: looked for again on each call, so skills added on disk show up. */
export interface SkillsApi {
  /** The skills found and switched on, sorted by name (before any agent's own `skills` setting and `skill` rules). */
  list(): Promise<Skill[]>;
  /** Skill files that were skipped (too big, binary, broken front matter, bad name) or lost a name clash to a nearer skill. */
  problems(): Promise<DefinitionProblem[]>;
}

/** The commands of an {@link Agent}: looked for again on each call. */
export interface CommandsApi {
  /** The commands found, defined in code and switched on, sorted by name. */
  list(): Promise<Command[]>;
  /** Command files that were skipped or lost a name clash. */
  problems(): Promise<DefinitionProblem[]>;
}

/** @internal */
export function skillsApi(catalog: SkillCatalog): SkillsApi {
  return {
    list: async () => (await catalog.discover()).skills,
    problems: async () => (await catalog.discover()).problems,
  };
}

/** @internal */
export function commandsApi(catalog: CommandCatalog): CommandsApi {
  return {
    list: async () => (await catalog.discover()).commands,
    problems: async () => (await catalog.discover()).problems,
  };
}
