/**
 * Expanding a command's template: `$ARGUMENTS`, `$1`…`$9` and `` !`cmd` `` blocks, in one pass over
 * the template. Text that comes in — an argument, a command's output — is inserted as it is and never
 * scanned again, so an argument holding `$1` or `` !`rm -rf ~` `` stays literal text.
 */

// A shell block, `$ARGUMENTS`, or `$1`…`$9` not followed by another digit (`$10` is left alone).
const TOKEN = /!`([^`\n]+)`|\$ARGUMENTS|\$([1-9])(?!\d)/g;
// The same placeholders inside a shell block.
const PLACEHOLDER = /\$ARGUMENTS|\$([1-9])(?!\d)/g;

/**
 * Splits an argument string into words the way a shell would read them: spaces separate words,
 * `"…"` and `'…'` group them (the quotes removed), a backslash escapes the next character.
 */
export function splitArguments(input: string): string[] {
  const words: string[] = [];
  let word = "";
  let inWord = false;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < input.length; i++) {
    const c = input[i]!;
    if (quote) {
      if (c === quote) quote = undefined;
      else if (c === "\\" && quote === '"' && i + 1 < input.length) word += input[++i];
      else word += c;
      continue;
    }
    if (c === '"' || c === "'") {
      quote = c;
      inWord = true;
    } else if (c === "\\" && i + 1 < input.length) {
      word += input[++i];
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(word);
      word = "";
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (inWord) words.push(word);
  return words;
}

/**
 * Quotes a word for a POSIX shell: as it is when it holds only characters the shell gives no meaning
 * (so `git log main` reads, and matches rules, naturally), else one single-quoted string with
 * embedded `'` written as `'\''`.
 */
export function shellQuote(word: string): string {
  if (/^[\w./:=@%+,-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** The arguments of a command invocation: the text as given (for `$ARGUMENTS`) and its words (for `$1`…`$9`). */
export interface CommandArguments {
  text: string;
  words: string[];
}

/** Normalises the arguments a host passes: a string (split like a shell would) or a list of words. */
export function commandArguments(args: string | readonly string[] | undefined): CommandArguments {
  if (args === undefined) return { text: "", words: [] };
  if (typeof args === "string") return { text: args.trim(), words: splitArguments(args) };
  return { text: args.join(" "), words: [...args] };
}

/**
 * Expands a template. `$ARGUMENTS` becomes the argument text, `$N` the N-th word (empty when
 * missing); when the template names no placeholder at all, the arguments are appended after a blank
 * line. Each `` !`cmd` `` block is replaced by what `runShell` returns for it (run in order, after its
 * own `$ARGUMENTS`/`$N` were replaced by shell-quoted words, so an argument cannot change the command's
 * shape). Only blocks written in the template run: none can come from an argument or an output.
 */
export async function expandTemplate(
  template: string,
  args: CommandArguments,
  runShell: (command: string) => Promise<string>,
): Promise<string> {
  let used = false;
  const pieces: Array<string | { shell: string }> = [];
  let last = 0;
  for (const match of template.matchAll(TOKEN)) {
    pieces.push(template.slice(last, match.index));
    last = match.index! + match[0].length;
    if (match[1] !== undefined) {
      pieces.push({
        shell: match[1].replace(PLACEHOLDER, (_, n: string | undefined) => {
          used = true;
          return n === undefined ? args.words.map(shellQuote).join(" ") : shellQuote(args.words[Number(n) - 1] ?? "");
        }),
      });
      continue;
    }
    used = true;
    pieces.push(match[2] === undefined ? args.text : (args.words[Number(match[2]) - 1] ?? ""));
  }
  pieces.push(template.slice(last));
  let out = "";
  for (const piece of pieces) out += typeof piece === "string" ? piece : (await runShell(piece.shell)).replace(/\n+$/, "");
  if (!used && args.text !== "") out = `${out.replace(/\s+$/, "")}\n\n${args.text}`;
  return out.trim();
}
