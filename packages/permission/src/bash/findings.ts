import { isAbsolute, normalize, resolve } from "node:path";
import type { PathUse } from "./analyze.js";
import { expandTilde, isHarmlessDevice, spelledAsDirectory } from "./paths.js";

/** The possible working directories at a point of the script. */
export type Cwds = ReadonlySet<string>;
/** Working directories after a statement: whatever happened, and given that it succeeded. */
export interface Flow {
  any: Cwds;
  ok: Cwds;
}

/** A statement that leaves the working directory as it was. */
export const unchanged = (cwds: Cwds): Flow => ({ any: cwds, ok: cwds });
/** Either set of working directories. */
export const union = (a: Cwds, b: Cwds): Cwds => (a === b ? a : new Set([...a, ...b]));

/** What the analysis of a command has found so far: its simple commands, paths and opacity. */
export class Findings {
  /** Canonical pattern → its other spellings, in order of appearance. */
  readonly commands = new Map<string, Set<string>>();
  /** One slot per pattern in order, filled once its opacity is known. */
  readonly alwaysSlots: (string | undefined)[] = [];
  /** Canonical pattern → its `always` slot. */
  readonly #slots = new Map<string, number>();
  readonly #paths = new Map<string, PathUse>();
  opaque = false;
  /** Inside loops and function bodies, which run any number of times. */
  repeating = 0;
  /** Inside code that an opaque command runs: its commands give no `always` suggestions. */
  wrapped = 0;

  constructor(readonly home: string) {}

  /** The touched paths, each once (a write wins over a read of the same path). */
  paths(): PathUse[] {
    return [...this.#paths.values()];
  }

  /** Records a simple command's canonical pattern and other spellings; returns its `always` slot. */
  add(pattern: string, variants: readonly string[]): number {
    let set = this.commands.get(pattern);
    if (!set) {
      set = new Set();
      this.commands.set(pattern, set);
      this.#slots.set(pattern, this.alwaysSlots.push(undefined) - 1);
    }
    for (const v of variants) if (v !== pattern) set.add(v);
    return this.#slots.get(pattern)!;
  }

  /**
   * `path` taken from `cwd` as the kernel would start: relative paths appended, `.` and repeated
   * slashes dropped, but `..` kept — after a symlink it leads out of the link's target, not back to
   * the link's folder, so only a resolver that reads the links may remove it.
   */
  join(cwd: string, path: string): string {
    const joined = isAbsolute(path) ? path : `${cwd}/${path}`;
    const parts = joined.split("/").filter((part) => part !== "" && part !== ".");
    const out = `/${parts.join("/")}`;
    // Without `..` the lexical form is exact.
    return parts.includes("..") ? out : normalize(out);
  }

  /** Records a path operand; operands whose value is not known make the command opaque. */
  touch(value: string | undefined, cwds: Cwds, isDirectory: boolean, write: boolean): void {
    if (value === undefined || (value.startsWith("~") && value !== "~" && !value.startsWith("~/"))) {
      this.opaque = true;
      return;
    }
    const expanded = expandTilde(value, this.home);
    const directory = isDirectory || spelledAsDirectory(value) || expanded === this.home;
    for (const cwd of cwds) {
      const spelled = this.join(cwd, expanded);
      const path = resolve(spelled);
      if (isHarmlessDevice(path)) continue;
      const known = this.#paths.get(spelled);
      const use: PathUse = { path, directory: directory || (known?.directory ?? false), write: write || (known?.write ?? false) };
      if (spelled !== path) use.spelled = spelled;
      this.#paths.set(spelled, use);
    }
  }
}
