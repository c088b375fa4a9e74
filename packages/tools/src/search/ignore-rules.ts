import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import ignore, { type Ignore } from "ignore";

// The ignore files ripgrep reads, lowest precedence first.
const IGNORE_FILES = [".gitignore", ".ignore", ".rgignore"];

interface Level {
  /** The folder whose ignore files these are. */
  base: string;
  rules: Ignore;
  tests: number;
}

/**
 * The ignore rules in force in one folder: those of its own ignore files and of every folder above it
 * (up to the repository root, the folder holding `.git`), deeper files taking precedence, as git and
 * ripgrep apply them.
 */
export class IgnoreRules {
  private constructor(private readonly levels: readonly Level[]) {}

  /** The rules in force at `root`: the ignore files of `root` and of its parents up to the repository root. */
  static async at(root: string): Promise<IgnoreRules> {
    const folders: string[] = [];
    for (let dir = root; ; dir = path.dirname(dir)) {
      folders.unshift(dir);
      const isRepoRoot = await stat(path.join(dir, ".git")).then(() => true, () => false);
      if (isRepoRoot || path.dirname(dir) === dir) break;
    }
    let rules = new IgnoreRules([]);
    for (const folder of folders) rules = await rules.descend(folder);
    return rules;
  }

  /** The rules in force in `dir`, a child folder: these plus its own ignore files, if any. */
  async descend(dir: string, names?: ReadonlySet<string>): Promise<IgnoreRules> {
    let text = "";
    for (const file of IGNORE_FILES) {
      if (names && !names.has(file)) continue;
      text += await readFile(path.join(dir, file), "utf8").then((t) => `${t}\n`, () => "");
    }
    if (!text.trim()) return this;
    return new IgnoreRules([...this.levels, { base: dir, rules: ignore({ ignorecase: false }).add(text), tests: 0 }]);
  }

  /** True when the entry at `absolute` is ignored; the deepest rule that speaks of it decides. */
  ignores(absolute: string, isDirectory: boolean): boolean {
    for (let i = this.levels.length - 1; i >= 0; i--) {
      const level = this.levels[i]!;
      // Entries are always below their levels' folders, so the relative path is a slice.
      const relative = absolute.startsWith(level.base + path.sep)
        ? absolute.slice(level.base.length + 1).split(path.sep).join("/")
        : path.relative(level.base, absolute).split(path.sep).join("/");
      const verdict = level.rules.test(isDirectory ? `${relative}/` : relative);
      forgetCache(level);
      if (verdict.ignored) return true;
      if (verdict.unignored) return false;
    }
    return false;
  }
}

// `ignore` caches a verdict for every path it is asked about. A walk asks about each path once, so
// the cache only grows; it is dropped now and then so a walk over a huge tree stays in bounded memory.
function forgetCache(level: Level): void {
  if (++level.tests % 4096 !== 0) return;
  const rules = level.rules as Ignore & { _initCache?: () => void };
  rules._initCache?.();
}
