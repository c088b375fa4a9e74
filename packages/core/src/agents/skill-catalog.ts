import { join } from "node:path";
import { z } from "zod";
import { definitionSources, EnablementSchema, isEnabled, parseOption, kindOf, nameProblem, sortedEntries, type DefinitionOrigin, type DefinitionProblem, type Enablement } from "./definition-dirs.js";
import { DefinitionFileCache, DefinitionFileError, parseFields, readDefinitionFile, splitFrontMatter } from "./front-matter.js";

/** The folders of a project (from the workspace up to its repository root) that hold skill folders, in order of precedence. */
export const SKILL_FOLDERS = [".lathe/skills", ".claude/skills", ".opencode/skill"] as const;

/** The file that makes a folder a skill. */
export const SKILL_FILE = "SKILL.md";

/** Where skills come from besides the project; see {@link AgentOptions.skills}. */
export interface SkillsOptions {
  /**
   * More places to look (absolute, or relative to the workspace): a folder of skill folders, or one
   * skill folder (holding a `SKILL.md`). They rank after the project's folders, before the user's.
   */
  paths?: string[];
  /** Which skills are switched on: all (default), none (`false`) or those matching these name patterns. */
  enabled?: Enablement;
}

const SkillsOptionsSchema = z.strictObject({ paths: z.array(z.string()).optional(), enabled: EnablementSchema.optional() });

/** The front matter of a `SKILL.md`. Other fields (`license`, `allowed-tools`…) are allowed and ignored. */
export const SkillFrontMatter = z.object({
  /** The skill's name; default the folder's name. */
  name: z.string().optional(),
  /** When to use the skill: the model reads only this until it loads the skill. */
  description: z.string().trim().min(1, "a description is required").max(1024),
});

/** A skill found on disk. Its instructions are read when the `skill` tool loads it. */
export interface Skill {
  name: string;
  description: string;
  /** The `SKILL.md` file. */
  path: string;
  /** The skill's folder, which may hold more files (scripts, references, templates). */
  directory: string;
  origin: DefinitionOrigin;
}

/** What skill discovery found: the skills by name (sorted), and the files it skipped or that lost a name clash. */
export interface SkillDiscovery {
  skills: Skill[];
  problems: DefinitionProblem[];
}

/**
 * The skills of one agent instance, looked for on every call (a skill added mid-session shows up on
 * the next turn); each `SKILL.md` is parsed again only when its modification time or size changes.
 */
export class SkillCatalog {
  private readonly parsed = new DefinitionFileCache<Skill>();

  constructor(
    private readonly options: {
      cwd: string;
      /** The user's config directory (`skills/` inside it); `false` for none. */
      configDir?: string | false | undefined;
      skills?: SkillsOptions | undefined;
    },
  ) {
    parseOption(SkillsOptionsSchema, options.skills ?? {}, "skills");
  }

  /**
   * Finds every skill: the project's folders from the workspace up (nearest first; in each directory
   * `.lathe/skills`, then `.claude/skills`, then `.opencode/skill`), then the host's `paths`, then the
   * user's config directory. The first skill of a name wins; later ones are reported as clashes.
   * Switched-off skills are left out.
   */
  discover(): SkillDiscovery {
    const skills = new Map<string, Skill>();
    const problems: DefinitionProblem[] = [];
    const { cwd, configDir, skills: options } = this.options;
    for (const source of definitionSources(cwd, SKILL_FOLDERS, options?.paths, configDir, "skills")) {
      // A host path may be one skill's folder rather than a folder of skills.
      for (const folder of skillFolders(source.dir, source.origin === "host")) {
        const file = join(folder, SKILL_FILE);
        const found = this.parsed.get(file, source.origin, () => readSkill(file, folder, source.origin));
        if (found instanceof DefinitionFileError) {
          problems.push({ kind: "invalid", path: found.path, message: found.message });
          continue;
        }
        const taken = skills.get(found.name);
        if (taken) {
          problems.push({ kind: "clash", path: found.path, name: found.name, message: `The skill "${found.name}" at ${found.path} is shadowed by the nearer one at ${taken.path}.` });
          continue;
        }
        skills.set(found.name, found);
      }
    }
    const enabled = this.options.skills?.enabled;
    const list = [...skills.values()].filter((s) => isEnabled(s.name, enabled)).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return { skills: list, problems };
  }
}

/** The skill folders under `dir`: `dir` itself when `single` and it holds a `SKILL.md`, else its sub-folders that do. */
function skillFolders(dir: string, single?: boolean): string[] {
  if (single && kindOf(join(dir, SKILL_FILE)) === "file") return [dir];
  const out: string[] = [];
  for (const name of sortedEntries(dir)) {
    const folder = join(dir, name);
    if (kindOf(join(folder, SKILL_FILE)) === "file") out.push(folder);
  }
  return out;
}

/** Reads and checks one `SKILL.md`; throws a {@link DefinitionFileError} for one that cannot be used. */
export function readSkill(file: string, directory: string, origin: DefinitionOrigin): Skill {
  const { data } = splitFrontMatter(file, readDefinitionFile(file));
  const fields = parseFields(file, SkillFrontMatter, data);
  const name = fields.name ?? directory.split(/[\\/]/).pop()!;
  const bad = nameProblem(name);
  if (bad) throw new DefinitionFileError(file, bad);
  return { name, description: fields.description.replace(/\s+/g, " "), path: file, directory, origin };
}

/** The instructions of a skill (its `SKILL.md` after the front matter), read now. */
export function skillInstructions(skill: Skill): string {
  return splitFrontMatter(skill.path, readDefinitionFile(skill.path)).body.trim();
}
