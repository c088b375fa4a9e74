import { readdirSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { expandHome, matchWildcard } from "@lathe/permission";
import { z } from "zod";
import { InvalidInputError } from "../errors.js";
import { repositoryRoot } from "./system-prompt.js";

/** Where a skill or command was found: the project's folders, a folder the host passed, the user's config directory, or the host's code. */
export type DefinitionOrigin = "project" | "host" | "user" | "code";

/** A skill or command file that was skipped, or a name that was taken by a nearer definition. */
export interface DefinitionProblem {
  /** `invalid`: the file cannot be used (too big, binary, broken YAML, bad fields); `clash`: its name is taken by a nearer one. */
  kind: "invalid" | "clash";
  /** The file. */
  path: string;
  /** The name, when known. */
  name?: string;
  message: string;
}

/**
 * Which skills or commands are switched on: `true` (default) all, `false` none, a list of wildcard
 * patterns of the names that are on (`["review-*", "deploy"]`), or name patterns switched on or off
 * (`{ "*": true, "deploy-*": false }`, the last matching entry deciding; unmatched names are on).
 */
export type Enablement = boolean | string[] | Record<string, boolean>;

/** The schema of {@link Enablement}. */
export const EnablementSchema = z.union([z.boolean(), z.array(z.string()), z.record(z.string(), z.boolean())]);

/** Parses a host's option group with its schema; a typo or a wrong type is an `InvalidInputError` naming the field. */
export function parseOption<S extends z.ZodType>(schema: S, value: unknown, name: string): z.infer<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const reasons = parsed.error.issues.map((issue) => `${[name, ...issue.path.map(String)].join(".")}: ${issue.message}`);
  throw new InvalidInputError(`Invalid ${name}: ${reasons.join("; ")}`);
}

/** Whether `name` is switched on by an {@link Enablement}. */
export function isEnabled(name: string, enabled: Enablement | undefined): boolean {
  if (enabled === undefined || enabled === true) return true;
  if (enabled === false) return false;
  if (Array.isArray(enabled)) return enabled.some((pattern) => matchWildcard(pattern, name));
  let on = true;
  for (const [pattern, value] of Object.entries(enabled)) if (matchWildcard(pattern, name)) on = value;
  return on;
}

/** The directories from the workspace up to its repository root (the workspace alone outside a repository), nearest first. */
export function projectDirs(cwd: string): string[] {
  const root = repositoryRoot(cwd);
  const dirs: string[] = [];
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    dirs.push(dir);
    if (!root || dir === root || dirname(dir) === dir) break;
  }
  return dirs;
}

/** The user's Lathe config directory: `$XDG_CONFIG_HOME/lathe`, else `~/.config/lathe`. */
export function defaultConfigDir(): string {
  return join(process.env.XDG_CONFIG_HOME || join(homedir(), ".config"), "lathe");
}

/** The entries of a directory, sorted by name (so discovery is the same on every file system); none when it does not exist. */
export function sortedEntries(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** What a path is (following symbolic links), or undefined when it does not exist. */
export function kindOf(path: string): "file" | "directory" | undefined {
  const info = statSync(path, { throwIfNoEntry: false });
  return info?.isFile() ? "file" : info?.isDirectory() ? "directory" : undefined;
}

/**
 * A skill or command name: letters, digits, `-`, `_`, `.` and `:` (commands in subfolders are named
 * `folder:name`), starting with a letter or digit, at most 64 characters — never a path separator or `..`.
 */
export const DEFINITION_NAME = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$/;

/** Why a name is not a valid skill or command name, or undefined when it is. */
export function nameProblem(name: string): string | undefined {
  if (/[\\/]/.test(name)) return `the name ${JSON.stringify(name)} contains a path separator`;
  if (!DEFINITION_NAME.test(name) || name.includes("..")) {
    return `the name ${JSON.stringify(name)} is not valid (letters, digits, "-", "_", "." or ":", starting with a letter or digit, at most 64 characters)`;
  }
  return undefined;
}

/** A folder looked in for skills or commands, and where it comes from. */
export interface DefinitionSource {
  dir: string;
  origin: DefinitionOrigin;
}

/**
 * The folders to look in, in order of precedence: each of `projectFolders` in every directory from
 * the workspace up to the repository root (nearest first), then the host's `paths` (`~/` is the home
 * directory; relative ones resolve against the workspace), then `userFolder` in the user's config directory (`configDir`; default
 * {@link defaultConfigDir}, `false` for none).
 */
export function definitionSources(
  cwd: string,
  projectFolders: readonly string[],
  paths: readonly string[] | undefined,
  configDir: string | false | undefined,
  userFolder: string,
): DefinitionSource[] {
  const out: DefinitionSource[] = [];
  for (const dir of projectDirs(cwd)) for (const folder of projectFolders) out.push({ dir: join(dir, folder), origin: "project" });
  for (const given of paths ?? []) {
    const path = expandHome(given);
    out.push({ dir: isAbsolute(path) ? path : resolve(cwd, path), origin: "host" });
  }
  const user = configDir === undefined ? defaultConfigDir() : configDir;
  if (user !== false) out.push({ dir: join(user, userFolder), origin: "user" });
  return out;
}
