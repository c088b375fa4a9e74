// What the repository's own files may do: a project command picks no agent in a workspace the host
// does not trust; a command or skill file reached through a symlink is asked for like a read.
import { realpath } from "node:fs/promises";
import { join, relative } from "node:path";
import { isInside, permissionPath, resolveToolPath, type ToolContext } from "@lathe/tools";
import type { Command } from "./command-catalog.js";
import { projectDirs, type DefinitionOrigin } from "./definition-dirs.js";

/**
 * The agent a command's front matter names, as far as it counts: a project command (the
 * repository's) picks no agent in an untrusted workspace — the prompt's agent answers it, and a
 * subtask goes to the default subagent through the prompt's agent's `task` rules. Commands of the
 * host, the user's config directory and code keep their agent.
 */
export function frontMatterAgent(command: Command, trusted: boolean): string | undefined {
  return command.origin === "project" && !trusted ? undefined : command.agent;
}

/**
 * Asks for a project command or skill file reached through a symlink — out of the repository, or
 * onto another of its files (`.env`) — as a `read` of its real path would be asked:
 * `external_directory` outside the workspace, then `read`, before its text goes to the model.
 * Rejects with the permission engine's error when denied. A file the project directory holds
 * itself (no symlink on the way) needs no ask.
 */
export async function askForLinkedDefinition(definition: { name: string; origin: DefinitionOrigin; path?: string | undefined }, cwd: string, ctx: ToolContext): Promise<void> {
  if (definition.origin !== "project" || definition.path === undefined) return;
  const found = definition.path;
  const home = projectDirs(cwd).find((dir) => isInside(dir, found));
  const real = await realpath(found);
  // No symlink between the project directory and the file: it is the repository's own text.
  if (home !== undefined && real === join(await realpath(home), relative(home, found))) return;
  const target = await resolveToolPath(ctx, real);
  await ctx.ask({ permission: "read", patterns: [permissionPath(target)], metadata: { filepath: target.absolute, definition: definition.name } });
}

