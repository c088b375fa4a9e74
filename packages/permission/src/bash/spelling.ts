import { basename, dirname } from "node:path";
import { subcommandWords } from "./arity.js";
import { setAsideGlobalOptions } from "./global-options.js";
import type { Word } from "./words.js";

/** Folders of the system's own programs: `/bin/rm` is the `rm` rules are written for. */
const SYSTEM_BIN = new Set(["/bin", "/usr/bin", "/usr/local/bin", "/sbin", "/usr/sbin", "/usr/local/sbin", "/opt/homebrew/bin"]);

/** A simple command's canonical form and its other spellings. */
export interface Spelled {
  /** The program's name without its folder (`/usr/bin/git` → `git`); what decides how it is read. */
  base: string;
  /** The canonical words: values after quote removal, dynamic words as written. */
  words: string[];
  /** The words joined by single spaces: the pattern allow rules are matched against. */
  canonical: string;
  /** Other spellings deny and ask rules also see: with and without the folder, global options set aside. */
  forms: string[];
  /** Folders that global options point the program at (`git -C dir`). */
  directories: string[];
}

/**
 * The canonical form of a simple command's words. `/usr/bin/rm` is `rm`; `./rm` or `/tmp/rm` is some
 * other program, so its canonical form keeps the path (an allow rule for `rm *` does not cover it)
 * and the bare name is one of its forms (a deny rule for `rm *` does).
 */
export function spell(words: readonly Word[]): Spelled {
  const [head, ...args] = words;
  const name = head?.value;
  const base = name !== undefined && name.includes("/") ? basename(name) : (name ?? head?.raw ?? "");
  const rest = args.map((a) => a.value ?? a.raw);
  const named = name === undefined || !name.includes("/") || SYSTEM_BIN.has(dirname(name)) ? base : name;
  const canonicalWords = [named, ...rest];
  const forms: string[] = [];
  for (const other of [name, base]) if (other !== undefined && other !== named) forms.push([other, ...rest].join(" "));
  const setAside = setAsideGlobalOptions(canonicalWords);
  if (setAside) forms.push(setAside.words.join(" "));
  return { base, words: canonicalWords, canonical: canonicalWords.join(" "), forms, directories: setAside?.directories ?? [] };
}

/** Whether a dynamic word sits among the words that name the command (`git $X`, `npm run $S`). */
export function subcommandHidden(words: readonly string[], dynamicAt: ReadonlySet<number>): boolean {
  const marked = words.map((w, i) => (dynamicAt.has(i) ? DYNAMIC : w));
  const named = setAsideGlobalOptions(marked)?.words ?? marked;
  return named.slice(1, subcommandWords(named)).includes(DYNAMIC);
}

/** Stands for a dynamic word while looking for the subcommand (bash words never hold NUL). */
const DYNAMIC = "\0";
