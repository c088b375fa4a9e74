// The shadow repository of one workspace: a git directory kept apart from the workspace (never its
// `.git`), created on first use, that the engine's other pieces drive through `git()`.
import { mkdir, stat, writeFile } from "node:fs/promises";
import { isAbsolute, join, relative, sep } from "node:path";
import { runGit, type GitRunOptions, type GitTarget } from "./git.js";
import { SnapshotNotFoundError } from "./errors.js";
import { workspaceExcludeFile } from "./workspace-excludes.js";
import { literalIgnorePattern } from "./exclude-file.js";

/**
 * Git attributes of the shadow repository. `$GIT_DIR/info/attributes` outranks the workspace's
 * `.gitattributes`, so no filter (LFS…), line-ending or encoding conversion ever runs: snapshots
 * store and restore the bytes on disk.
 */
const ATTRIBUTES = "* -text -eol -filter -ident -working-tree-encoding\n";

/** The tree of an empty directory, the same in every SHA-1 repository. */
export const EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";

export class ShadowRepository {
  private ready: Promise<void> | undefined;

  /**
   * @param target the git executable, shadow git directory and workspace.
   * @param dataDir the agent's data directory: never snapshotted when it lies inside the workspace.
   */
  constructor(
    readonly target: GitTarget,
    private readonly dataDir: string,
  ) {}

  get gitDir(): string {
    return this.target.gitDir;
  }

  get workTree(): string {
    return this.target.workTree;
  }

  /** Runs git on this repository and returns its stdout (creating the repository first if needed). */
  async git(args: readonly string[], options?: GitRunOptions): Promise<Buffer> {
    await this.ensureCreated();
    return (await this.rawGit(args, options)).stdout;
  }

  /** Runs git and returns its exit code too, for commands whose non-zero codes are answers. */
  async gitWithCode(args: readonly string[], options: GitRunOptions): Promise<{ stdout: Buffer; exitCode: number }> {
    await this.ensureCreated();
    return this.rawGit(args, options);
  }

  /** Throws {@link SnapshotNotFoundError} unless `hash` names a tree in this repository. */
  async assertTree(hash: string): Promise<void> {
    const { exitCode } = await this.gitWithCode(["cat-file", "-e", `${hash}^{tree}`], { okCodes: [1, 128] });
    if (exitCode !== 0) throw new SnapshotNotFoundError(hash);
  }

  /** Creates the repository (once per instance; cheap when it already exists). Call under the repository lock. */
  ensureCreated(): Promise<void> {
    this.ready ??= this.create().catch((error: unknown) => {
      this.ready = undefined;
      throw error;
    });
    return this.ready;
  }

  /**
   * The exclude pattern for the agent's data directory (with this repository in it) when it lies
   * inside the workspace: snapshotting it would record the repository in itself, and a restore
   * would roll back the agent's own storage.
   */
  selfExcludePattern(): string | undefined {
    // The data directory may be the workspace itself: then at least the repository stays out.
    for (const dir of [this.dataDir, this.gitDir]) {
      const inside = relative(this.workTree, dir);
      if (inside === "" || inside === ".." || inside.startsWith(`..${sep}`) || isAbsolute(inside)) continue;
      return literalIgnorePattern(inside.split(sep).join("/"))?.concat("/");
    }
    return undefined;
  }

  private async rawGit(args: readonly string[], options?: GitRunOptions): Promise<{ stdout: Buffer; exitCode: number }> {
    return runGit(this.target, args, options, await workspaceExcludeFile(this.workTree));
  }

  private async create(): Promise<void> {
    const exists = await stat(join(this.gitDir, "HEAD")).catch(() => undefined);
    if (!exists) {
      await mkdir(this.gitDir, { recursive: true });
      await this.rawGit(["-c", "init.defaultBranch=snapshots", "init", "--quiet", "--template="]);
    }
    await mkdir(join(this.gitDir, "info"), { recursive: true });
    await writeFile(join(this.gitDir, "info", "attributes"), ATTRIBUTES);
  }
}
