// Seeds a new shadow repository from the workspace's own git repository, so the first snapshot of
// a git workspace costs about one `git status` instead of hashing every file: the shadow index
// starts as a copy of the workspace's index (its stat data says which files are unchanged, its
// cache-tree names the trees already written), and the shadow repository borrows the workspace's
// object store (`objects/info/alternates`, as `git clone --shared` does), so the blobs and trees
// of unchanged files are already there. Only files that differ from the index get hashed.
//
// The copy is trimmed to the snapshot rules: unmerged, sparse (skip-worktree), intent-to-add and
// submodule entries, files above the size limit, and files whose stored blob need not be their
// bytes on disk (clean filters, line-ending or encoding conversion) are dropped, so git lists them
// as new and they are staged the ordinary way. Anything unexpected (SHA-256 repository, split or
// sparse index, global CRLF conversion, an unreadable index) leaves the shadow repository unseeded.
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readFile, rm, stat, utimes, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import { basename, join, resolve } from "node:path";
import { readGitIndex, type GitIndex } from "./git-index.js";
import { splitNul } from "./git-lines.js";
import { removeFromIndex } from "./shadow-index.js";
import type { ShadowRepository } from "./shadow-repository.js";
import { workspaceGitDirs } from "./workspace-excludes.js";

/** Index extensions that are kept: the cache-tree (trees already written). Others are dropped. */
const KEPT_EXTENSIONS = new Set(["TREE"]);
/** Index extensions whose presence changes what the entries mean: no seeding then. */
const UNSUPPORTED_EXTENSIONS = new Set(["link", "sdir"]);
/** Attributes that can make the stored blob differ from the bytes on disk. */
const CONVERTING_ATTRIBUTES = ["filter", "text", "eol", "crlf", "ident", "working-tree-encoding"];
const GITLINK = 0o160000;
const REGULAR_FILE_TYPE = 0o100000;

/** What seeding reads from the workspace's repository, before anything is written. */
export interface WorkspaceSeed {
  /** The workspace repository's object store, borrowed through `alternates`. */
  objects: string;
  /** The index to write: the bytes read (so the entries judged are the entries written), less the extensions not inherited. */
  index: Buffer;
  /** The workspace index's times, kept on the copy. */
  indexTimes: { atime: Date; mtime: Date };
  /** Entries the snapshot rules leave out, removed from the copy. */
  dropped: string[];
}

/**
 * Reads what seeding a shadow repository from the workspace's repository needs (it writes
 * nothing, so it may run while the shadow repository is being created). Resolves undefined when
 * the workspace is not a git repository root or cannot be used (the caller then stages the
 * workspace from scratch).
 */
export async function readWorkspaceSeed(gitPath: string, workTree: string, maxFileSize: number): Promise<WorkspaceSeed | undefined> {
  try {
    const dirs = await workspaceGitDirs(workTree);
    if (!dirs) return undefined;
    const objects = join(dirs.commonDir, "objects");
    const indexPath = join(dirs.gitDir, "index");
    const [data, info, config, conversion] = await Promise.all([
      readFile(indexPath),
      stat(indexPath),
      readFile(join(dirs.commonDir, "config"), "utf8").catch(() => ""),
      workspaceConversion(gitPath, workTree, dirs.commonDir),
    ]);
    if (/^\s*objectformat\s*=\s*sha256\s*$/im.test(config) || conversion.crlf || !existsSync(objects)) return undefined;
    const index = readGitIndex(data);
    if (index.extensions.some((e) => UNSUPPORTED_EXTENSIONS.has(e.signature))) return undefined;

    const dropped = new Set<string>();
    let attributed = conversion.attributeSources;
    for (const entry of index.entries) {
      const large = (entry.mode & 0o170000) === REGULAR_FILE_TYPE && entry.size > maxFileSize;
      if (entry.stage !== 0 || entry.mode === GITLINK || entry.skipWorktree || entry.intentToAdd || large) dropped.add(entry.path);
      if (!attributed && basename(entry.path) === ".gitattributes") attributed = true;
    }
    if (attributed) for (const path of await convertedPaths(gitPath, workTree, index)) dropped.add(path);
    // An index with nothing to trim is written as it was read (its checksum still holds).
    const written = index.extensions.every((e) => KEPT_EXTENSIONS.has(e.signature)) ? data : trimmedIndex(data, index);
    return { objects, index: written, indexTimes: { atime: info.atime, mtime: info.mtime }, dropped: [...dropped] };
  } catch {
    return undefined;
  }
}

/**
 * Seeds the shadow repository (created, with no index yet) from what {@link readWorkspaceSeed}
 * read. Resolves false, leaving the repository unseeded, when that fails.
 */
export async function plantSeed(repo: ShadowRepository, seed: WorkspaceSeed): Promise<boolean> {
  const shadowIndex = join(repo.gitDir, "index");
  const alternates = join(repo.gitDir, "objects", "info", "alternates");
  try {
    await mkdir(join(repo.gitDir, "objects", "info"), { recursive: true });
    await Promise.all([
      writeFile(alternates, `${resolve(seed.objects)}\n`),
      writeFile(shadowIndex, seed.index),
    ]);
    // The copy keeps the original's time, so git still sees which entries are racily clean.
    await utimes(shadowIndex, seed.indexTimes.atime, seed.indexTimes.mtime);
    await removeFromIndex(repo, seed.dropped);
    return true;
  } catch {
    // Whatever went wrong, the shadow repository starts empty: the first snapshot hashes everything.
    await rm(shadowIndex, { force: true });
    await rm(alternates, { force: true });
    return false;
  }
}

/** The index with the extensions the shadow repository should not inherit left out, and a new checksum. */
function trimmedIndex(data: Buffer, index: GitIndex): Buffer {
  const pieces = [data.subarray(0, index.entriesEnd)];
  for (const extension of index.extensions) if (KEPT_EXTENSIONS.has(extension.signature)) pieces.push(data.subarray(extension.start, extension.end));
  const body = Buffer.concat(pieces);
  return Buffer.concat([body, createHash("sha1").update(body).digest()]);
}

/** What in the user's git setup may convert files between disk and repository. */
async function workspaceConversion(gitPath: string, workTree: string, commonDir: string): Promise<{ crlf: boolean; attributeSources: boolean }> {
  const output = await userGit(gitPath, workTree, ["config", "-z", "--get-regexp", "^core\\.(autocrlf|attributesfile)$"], [1]);
  const settings = new Map<string, string>();
  for (const item of splitNul(output)) {
    const [key, ...value] = item.split("\n");
    settings.set(key!.toLowerCase(), value.join("\n"));
  }
  const autocrlf = settings.get("core.autocrlf")?.toLowerCase();
  const crlf = autocrlf !== undefined && autocrlf !== "false";
  const configHome = process.env.XDG_CONFIG_HOME || join(homedir(), ".config");
  const attributesFile = settings.get("core.attributesfile")?.replace(/^~(?=\/|$)/, homedir()) ?? join(configHome, "git", "attributes");
  const sources = [attributesFile, "/etc/gitattributes", join(commonDir, "info", "attributes")];
  return { crlf, attributeSources: sources.some((path) => existsSync(path)) };
}

/** The paths of the index that an attribute may convert, as the user's own git sees them. */
async function convertedPaths(gitPath: string, workTree: string, index: GitIndex): Promise<string[]> {
  const input = index.entries.map((e) => `${e.path}\0`).join("");
  const output = splitNul(await userGit(gitPath, workTree, ["check-attr", "-z", "--stdin", ...CONVERTING_ATTRIBUTES], [], input));
  const paths = new Set<string>();
  for (let i = 0; i + 2 < output.length; i += 3) {
    const value = output[i + 2];
    if (value !== "unspecified" && value !== "unset") paths.add(output[i]!);
  }
  return [...paths];
}

/** Runs the user's git in the workspace (their configuration is the point); stdout as bytes. */
function userGit(gitPath: string, workTree: string, args: string[], okCodes: number[], input = ""): Promise<Buffer> {
  return new Promise((resolvePromise, reject) => {
    const env: NodeJS.ProcessEnv = { ...process.env, GIT_TERMINAL_PROMPT: "0" };
    for (const key of ["GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY"]) delete env[key];
    const child = spawn(gitPath, args, { cwd: workTree, env, stdio: ["pipe", "pipe", "ignore"], windowsHide: true });
    const out: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
    child.on("error", reject);
    child.on("close", (code) => (code === 0 || (code !== null && okCodes.includes(code)) ? resolvePromise(Buffer.concat(out)) : reject(new Error(`git ${args[0]} exited ${code}`))));
    child.stdin.on("error", () => {});
    child.stdin.end(input);
  });
}
