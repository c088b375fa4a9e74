import { readdir } from "node:fs/promises";
import { join, relative } from "node:path";
import { askForLinkedDefinition } from "./project-trust.js";
import { defineTool, type Tool } from "@lathe/tools";
import { z } from "zod";
import { SKILL_FILE, skillInstructions, type Skill } from "./skill-catalog.js";

/** The most files of a skill's folder listed when it is loaded. */
export const SKILL_FILE_LIMIT = 100;
const SKIPPED_FOLDERS = new Set(["node_modules", "__pycache__"]);

/** The skills the calling agent may load (switched on for it, not denied by its `skill` rules). */
export type SkillsForAgent = (agent: string) => Promise<Skill[]>;

const SkillParameters = z.object({
  name: z.string().min(1).describe("The name of the skill to load, as listed under available skills in the system prompt."),
});

/** The tool's description: the same for every agent and turn, so it never breaks a provider's prompt cache. */
const DESCRIPTION = `Load a skill: the full instructions for a kind of task, by name.
The available skills and what each is for are listed in the system prompt. When the user's task matches a skill's description, load the skill before you start and follow its instructions.
The result also lists the other files in the skill's folder (scripts, references, templates); read or run them when the instructions call for them.`;

/**
 * The `skill` tool (progressive disclosure): the model sees only each skill's name and description
 * until it loads one; loading returns the skill's instructions and lists the files beside them. Asks
 * the `skill` permission with the skill's name as the pattern.
 */
export function createSkillTool(skillsFor: SkillsForAgent): Tool<typeof SkillParameters> {
  return defineTool({
    name: "skill",
    description: DESCRIPTION,
    parameters: SkillParameters,
    readOnly: true,
    async execute(args, ctx) {
      const skills = await skillsFor(ctx.agent);
      const skill = skills.find((s) => s.name === args.name);
      if (!skill) {
        const names = skills.map((s) => s.name);
        throw new Error(`There is no skill named "${args.name}".${names.length ? ` Available skills: ${names.join(", ")}.` : " No skills are available."}`);
      }
      await ctx.ask({ permission: "skill", patterns: [skill.name], always: [skill.name], metadata: { name: skill.name, path: skill.path } });
      // A SKILL.md a symlink leads out of the repository is asked for like a read of its real path.
      await askForLinkedDefinition(skill, ctx.cwd, ctx);
      const instructions = skillInstructions(skill);
      const files = await listSkillFiles(skill.directory);
      const listing = files.paths.map((p) => join(skill.directory, p)).join("\n");
      const more = files.more ? `\n(… and more files; list the folder to see them all)` : "";
      return {
        title: `Loaded skill ${skill.name}`,
        output: [
          `<skill name="${skill.name}">`,
          `Base directory of this skill: ${skill.directory}`,
          `Paths in these instructions are relative to it.`,
          "",
          instructions,
          "",
          files.paths.length ? `<skill_files>\n${listing}${more}\n</skill_files>` : "<skill_files>(none besides SKILL.md)</skill_files>",
          "</skill>",
        ].join("\n"),
        metadata: { name: skill.name, path: skill.path, directory: skill.directory, files: files.paths.length },
      };
    },
  });
}

/** The files of a skill's folder other than `SKILL.md`, relative and sorted, at most {@link SKILL_FILE_LIMIT}. */
export async function listSkillFiles(directory: string): Promise<{ paths: string[]; more: boolean }> {
  const paths: string[] = [];
  let more = false;
  const walk = async (dir: string, depth: number): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (paths.length >= SKILL_FILE_LIMIT) {
        more = true;
        return;
      }
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!entry.name.startsWith(".") && !SKIPPED_FOLDERS.has(entry.name) && depth < 5) await walk(path, depth + 1);
      } else if (!(dir === directory && entry.name === SKILL_FILE)) {
        paths.push(relative(directory, path));
      }
    }
  };
  await walk(directory, 0);
  return { paths, more };
}

/**
 * The system prompt's skill list: names and descriptions sorted by name, nothing that changes from one
 * turn to the next (no dates, no paths), so the section is byte-identical while the skills are — a
 * provider's prompt cache keeps it. Undefined when there are no skills.
 */
export function skillsSection(skills: readonly Skill[]): string | undefined {
  if (skills.length === 0) return undefined;
  const sorted = [...skills].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return [
    "Skills: instructions for particular kinds of task, loaded on demand with the skill tool. When a task matches a skill's description, load that skill first and follow it.",
    "<available_skills>",
    ...sorted.map((s) => `- ${s.name}: ${s.description}`),
    "</available_skills>",
  ].join("\n");
}
