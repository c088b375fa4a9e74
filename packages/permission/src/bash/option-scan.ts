/**
 * Reading a command's leading options the way the program does, to find where its operands start:
 * options that take a value (`-u root`, `--user root`, `--user=root`, `-uroot`), `--`, and the rest
 * as flags. Shared by the wrapper and global-option tables.
 */

/** How to read a program's options. */
export interface OptionSpec {
  /** Options whose value is the next word (or attached: `-uroot`, `--user=root`). */
  valued?: readonly string[];
  /** Valued options whose value is a directory the program works in (`git -C dir`). */
  directories?: readonly string[];
  /** Single-dash long options (`terraform -chdir=dir`, `find`-style): never split into letters. */
  singleDashLong?: boolean;
  /** `nice -10`: a dash followed by digits is an option. */
  numericOptions?: boolean;
  /** `NAME=value` words before the operands are assignments (`env`). */
  assignments?: boolean;
}

/** Where the operands start, and what the options said. */
export interface OptionScan {
  /** Index of the first operand in `values`; `values.length` when there is none. */
  operands: number;
  /** The options seen, each with its value when it takes one (in order). */
  options: { name: string; value: string | undefined }[];
  /** The option words as written (`-lu`, `--user=root`), to look for flags inside groups. */
  words: string[];
  /** Directory values of options listed in `directories`. */
  directories: string[];
  /** `NAME=value` words seen (when `assignments`). */
  assignments: string[];
  /** A word whose value is unknown (an expansion) came before the operands: where they start is unknown. */
  unknown: boolean;
}

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

/** Reads leading options from `values` (the words after the program's name; undefined = dynamic). */
export function scanOptions(values: readonly (string | undefined)[], spec: OptionSpec): OptionScan {
  const valued = new Set([...(spec.valued ?? []), ...(spec.directories ?? [])]);
  const dirs = new Set(spec.directories ?? []);
  const scan: OptionScan = { operands: values.length, options: [], words: [], directories: [], assignments: [], unknown: false };
  const take = (name: string, value: string | undefined) => {
    scan.options.push({ name, value });
    if (dirs.has(name) && value !== undefined) scan.directories.push(value);
  };
  for (let i = 0; i < values.length; i++) {
    const word = values[i];
    if (word === undefined) {
      scan.unknown = true;
      scan.operands = i;
      return scan;
    }
    if (word === "--") {
      scan.operands = i + 1;
      return scan;
    }
    if (spec.assignments && ASSIGNMENT.test(word)) {
      scan.assignments.push(word);
      continue;
    }
    if (!word.startsWith("-") || word === "-") {
      scan.operands = i;
      return scan;
    }
    if (spec.numericOptions && /^-\d+$/.test(word)) {
      scan.words.push(word);
      take(word, undefined);
      continue;
    }
    scan.words.push(word);
    const eq = word.indexOf("=");
    const long = word.startsWith("--") || spec.singleDashLong === true;
    if (long && eq > 0) {
      take(word.slice(0, eq), word.slice(eq + 1));
      continue;
    }
    if (valued.has(word)) {
      take(word, values[i + 1]);
      if (values[i + 1] === undefined && i + 1 < values.length) scan.unknown = true;
      i++;
      continue;
    }
    if (!word.startsWith("--") && !spec.singleDashLong) {
      // Short flags may be grouped (`-it`); a valued one takes the rest of the word or the next word.
      const k = [...word.slice(1)].findIndex((letter) => valued.has(`-${letter}`));
      if (k < 0) take(word, undefined);
      else if (k + 2 < word.length) take(`-${word[k + 1]}`, word.slice(k + 2));
      else {
        take(`-${word[k + 1]}`, values[i + 1]);
        i++;
      }
      continue;
    }
    take(word, undefined);
  }
  return scan;
}

/** Whether the options include `flag` (`-v`, also inside a group like `-pv`; `--verbose`). */
export function hasFlag(scan: OptionScan, flag: string): boolean {
  if (flag.startsWith("--")) return scan.words.some((w) => w === flag || w.startsWith(`${flag}=`));
  return scan.words.some((w) => !w.startsWith("--") && w.startsWith("-") && w.slice(1).includes(flag.slice(1)));
}
