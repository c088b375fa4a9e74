// Whether the user trusts the workspace, asked once per folder as editors do and remembered in a
// small JSON file beside the sessions database. A trusted workspace may run its own formatters,
// language servers and command agents (see docs/permissions.md, "Workspace trust"); the answer is
// passed to createAgent({ trust }).
import { existsSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import select from "@inquirer/select";
import type { WorkspaceTrust } from "@lathe/core";
import pc from "picocolors";

interface TrustFile {
  /** Real paths of workspaces, with the user's answer. */
  workspaces: Record<string, WorkspaceTrust>;
}

function load(file: string): TrustFile {
  if (!existsSync(file)) return { workspaces: {} };
  try {
    const parsed = JSON.parse(readFileSync(file, "utf8")) as Partial<TrustFile>;
    return { workspaces: parsed.workspaces && typeof parsed.workspaces === "object" ? parsed.workspaces : {} };
  } catch {
    return { workspaces: {} };
  }
}

/**
 * The trust of `cwd`: `given` when the command line decided (`--trust`, or a workspace this run
 * made), else the remembered answer, else the user's answer to one question (remembered) when
 * `interactive`, else `untrusted` — a script (`-p`, no terminal) is never asked and never trusts.
 */
export async function workspaceTrust(cwd: string, options: { file: string; interactive: boolean; given?: WorkspaceTrust }): Promise<WorkspaceTrust> {
  if (options.given) return options.given;
  const key = realpathSync(cwd);
  const stored = load(options.file);
  const known = stored.workspaces[key];
  if (known === "trusted" || known === "untrusted") return known;
  if (!options.interactive) return "untrusted";
  const answer = await select<WorkspaceTrust>({
    message: `Do you trust the files in ${pc.bold(key)}? A trusted workspace may run its own formatters, language servers and command settings.`,
    choices: [
      { name: "No, keep it untrusted (the agent still works; the repository's own tools do not run)", value: "untrusted" },
      { name: "Yes, I trust the authors of these files", value: "trusted" },
    ],
  });
  stored.workspaces[key] = answer;
  writeFileSync(options.file, `${JSON.stringify(stored, null, 2)}\n`);
  return answer;
}
