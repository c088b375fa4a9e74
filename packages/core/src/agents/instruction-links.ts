// Instruction files go into the system prompt, where no ask can guard them: a repository's
// AGENTS.md must not be a symlink that carries its .env, or a file outside it, to the model.
import { lstatSync, realpathSync } from "node:fs";
import { extname } from "node:path";
import { isInside } from "@lathe/tools";

/**
 * Whether a project instruction file (`AGENTS.md`, …) may go into the system prompt, where no ask
 * can guard it: the file itself, or a symlink to a Markdown file inside `root` (the repository, or
 * the workspace) — `AGENTS.md → CLAUDE.md` is kept; `AGENTS.md → .env` or `→ ~/.ssh/id_rsa` is not.
 */
export function isOwnInstructionFile(file: string, root: string): boolean {
  try {
    if (!lstatSync(file).isSymbolicLink()) return true;
    const real = realpathSync(file);
    return extname(real).toLowerCase() === ".md" && isInside(realpathSync(root), real);
  } catch {
    return false;
  }
}
