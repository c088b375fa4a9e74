/**
 * The subset of bash the analyser models exactly, read by a small hand-written parser that accepts
 * only what it understands. Everything else is refused (opaque): the analysis is sound because this
 * parser never guesses. What it accepts it re-prints in a canonical spelling (every word a literal,
 * single-quoted where needed, heredocs as here-strings) that the tree-sitter walker cannot read any
 * other way than bash does.
 *
 * The subset:
 * - simple commands: `NAME=literal` prefixes, words made of unquoted characters, `\x` escapes,
 *   `'single'` and `"double"` quotes without `$`/backticks inside, a leading `~` or `~/`;
 * - pipelines (`|`, `|&`, a leading `!`), lists (`;`, `&`, `&&`, `||`, newlines), `( … )` subshells
 *   and `{ …; }` groups, comments;
 * - redirections `[n]<`, `>`, `>>`, `>|`, `&>`, `&>>` to a literal word or a process substitution,
 *   `[n]>&m`, `[n]<&m`, `>&-`, here-strings of a literal word, heredocs whose body is literal (a
 *   quoted delimiter, or no `$`, backtick or backslash in it);
 * - process substitutions `<( … )` and `>( … )` standing as a whole word.
 *
 * Refused: every `$` (parameters, `$(…)`, `$((…))`, `$'…'`, `${x@P}`), backticks, globs (`*`, `?`,
 * `[` except the `[` command), braces (`{a,b}`, `{x}>f`), `~user`, a `~` after `=` or `:`, line
 * continuations, reserved words in command position other than `{`, `}`, `!` (if, for, while, case,
 * `[[`, `coproc`, `function`…), `;;` and other syntax errors, unterminated quotes, `<>`, `>&file`,
 * NUL bytes, nesting deeper than {@link MAX_SUBSET_NESTING}.
 */

import type { AnalysisBudget } from "./clock.js";

/** The parser's answer: the canonical text of a command it models, or why it does not. */
export type SubsetResult = { ok: true; text: string } | { ok: false; reason: string };

/** `( { <( … ) } )` nested deeper than this is refused. */
export const MAX_SUBSET_NESTING = 64;

/** Words bash reads as syntax when they stand where a command name goes. */
const RESERVED = new Set(["if", "then", "elif", "else", "fi", "case", "esac", "for", "select", "while", "until", "do", "done", "function", "coproc", "in", "[[", "]]", "{", "}", "!"]);
/** Characters that end an unquoted word. */
const META = new Set([" ", "\t", "\n", ";", "&", "|", "(", ")", "<", ">"]);
/** Characters a word may hold and still be printed without quotes. */
const PLAIN = /^[A-Za-z0-9_./:@%+,=-]+$/;
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** `time` (with `-p`/`--`) followed by a `NAME=` word. */
const TIME_THEN_ASSIGNMENT = /^time(?:[ \t]+(?:-p|--))*[ \t]+[A-Za-z_][A-Za-z0-9_]*\+?=/;
/** Characters with no meaning to bash inside a word (a run of them is taken at once). */
const PLAIN_RUN = /[A-Za-z0-9_.\/:@%+,=-]+/y;

/** Why the parser stopped: thrown, but not an Error (no stack trace to build; refusals are common). */
class Refused {
  constructor(readonly message: string) {}
}

const refuse = (reason: string): never => {
  throw new Refused(reason);
};

/** A word as read: its value, whether any part was quoted, and its text as written. */
interface LexedWord {
  value: string;
  quoted: boolean;
  /** The unquoted text before the first `=` when it is a valid name (an assignment candidate). */
  assignment?: string;
  /** The canonical text of a process substitution standing as the whole word. */
  substitution?: string;
  /** It starts with a `~` that bash expands to the home folder (kept as `~` in the canonical text). */
  tilde?: boolean;
}

/** The canonical text of a word: a leading home `~` unquoted, the rest quoted as needed. */
function printWord(word: LexedWord, commandName = false): string {
  if (!word.tilde) return quoteWord(word.value, commandName);
  const rest = word.value.slice(1);
  return rest === "" ? "~" : `~${quoteWord(rest)}`;
}

interface PendingHeredoc {
  delimiter: string;
  literal: boolean;
  stripTabs: boolean;
  /** Where the canonical here-string goes, filled when the body is read. */
  slot: { text: string };
  fd: string;
}

/**
 * Reads `code` as the bash subset (see the module comment) and returns its canonical text, or the
 * reason it is outside the subset. Linear in the length of `code`; never throws.
 */
export function toSubset(code: string, home: string, budget?: AnalysisBudget): SubsetResult {
  try {
    const parser = new SubsetParser(code, home, budget);
    return { ok: true, text: parser.finish(parser.program()) };
  } catch (error) {
    if (error instanceof Refused) return { ok: false, reason: error.message };
    if (error instanceof RangeError) return { ok: false, reason: "too deep" };
    return { ok: false, reason: String(error) };
  }
}

/** Prints a word so that bash (and tree-sitter) read exactly `value` back. */
export function quoteWord(value: string, commandName = false): string {
  if (value !== "" && PLAIN.test(value) && !(commandName && (RESERVED.has(value) || value.includes("=")))) return value;
  return `'${value.replaceAll("'", "'\\''")}'`;
}

/** Marks around a redirected command (the source holds no NUL, so they cannot clash with it). */
const GROUP_OPEN = "\u0000[";
const GROUP_CLOSE = "\u0000]";
const grouped = (text: string): string => `${GROUP_OPEN}${text}${GROUP_CLOSE}`;

class SubsetParser {
  private at = 0;
  private nesting = 0;
  private steps = 0;
  private nextCheck = 1024;
  private heredocs: PendingHeredoc[] = [];

  constructor(
    private readonly src: string,
    private readonly home: string,
    private readonly budget: AnalysisBudget | undefined,
  ) {}

  program(): string {
    if (this.src.includes("\0")) refuse("NUL byte");
    const text = this.list(undefined);
    if (this.at < this.src.length) refuse(`unexpected ${JSON.stringify(this.src[this.at])}`);
    if (this.heredocs.length > 0) refuse("heredoc without its body");
    return text;
  }

  private tick(): void {
    if (++this.steps < this.nextCheck) return;
    this.nextCheck = this.steps + 1024;
    if (this.budget?.spent()) refuse("out of time");
  }

  private peek(offset = 0): string {
    return this.src[this.at + offset] ?? "";
  }

  /** Skips blanks and comments (not newlines). */
  private blanks(): void {
    for (;;) {
      const c = this.peek();
      if (c === " " || c === "\t") this.at++;
      else if (c === "\\" && this.peek(1) === "\n") refuse("line continuation");
      else if (c === "#") {
        while (this.at < this.src.length && this.src[this.at] !== "\n") this.at++;
      } else return;
    }
  }

  /** A newline: reads the heredoc bodies waiting for it. */
  private newline(): void {
    this.at++;
    const pending = this.heredocs;
    this.heredocs = [];
    for (const heredoc of pending) this.heredocBody(heredoc);
  }

  /**
   * A command list up to `close` (`)` or `}`) or the end. Returns its canonical text; the closing
   * token is left for the caller.
   */
  list(close: ")" | "}" | undefined): string {
    let out = "";
    for (;;) {
      this.tick();
      this.blanks();
      const c = this.peek();
      if (c === "") break;
      if (c === "\n") {
        this.newline();
        continue;
      }
      if (c === ")" && close === ")") break;
      if (close === "}" && this.atWord("}")) break;
      out += this.andOr();
      this.blanks();
      const next = this.peek();
      if (next === ";") {
        if (this.peek(1) === ";" || this.peek(1) === "&") refuse("case terminator outside case");
        this.at++;
        out += "; ";
      } else if (next === "&") {
        this.at++;
        out += " & ";
      } else if (next === "\n") {
        this.newline();
        out += "; ";
      } else if (next === "" || (next === ")" && close === ")")) break;
      else refuse(`unexpected ${JSON.stringify(next)}`);
    }
    out = out.trimEnd();
    return out.endsWith(";") ? out.slice(0, -1) : out;
  }

  /** Whether the next word is exactly `word` followed by a word end. */
  private atWord(word: string): boolean {
    if (!this.src.startsWith(word, this.at)) return false;
    const after = this.src[this.at + word.length] ?? "";
    return after === "" || META.has(after);
  }

  /** Pipelines joined by `&&` and `||`. */
  private andOr(): string {
    let out = this.pipeline();
    for (;;) {
      this.blanks();
      const two = this.src.slice(this.at, this.at + 2);
      if (two !== "&&" && two !== "||") return out;
      this.at += 2;
      this.skipNewlines();
      out += ` ${two} ${this.pipeline()}`;
    }
  }

  private skipNewlines(): void {
    for (;;) {
      this.blanks();
      if (this.peek() !== "\n") return;
      this.newline();
    }
  }

  private pipeline(): string {
    this.blanks();
    let out = "";
    if (this.atWord("!")) {
      this.at++;
      out = "! ";
      this.blanks();
    }
    // `time` stays a word: bash's keyword only times the pipeline, but `sh` (dash) runs the `time`
    // program, so the walker lists it as a wrapper — the command is listed either way. After bash's
    // keyword an assignment prefix still counts (`time A=1 cmd` runs cmd), after the program it would
    // be the command: refused.
    if (TIME_THEN_ASSIGNMENT.test(this.src.slice(this.at, this.at + 256))) refuse("time before an assignment");
    out += this.command();
    for (;;) {
      this.blanks();
      if (this.peek() !== "|" || this.peek(1) === "|") return out;
      const both = this.peek(1) === "&";
      this.at += both ? 2 : 1;
      this.skipNewlines();
      out += `${both ? " |& " : " | "}${this.command()}`;
    }
  }

  private nested<T>(read: () => T): T {
    if (++this.nesting > MAX_SUBSET_NESTING) refuse("nested too deep");
    try {
      return read();
    } finally {
      this.nesting--;
    }
  }

  private command(): string {
    this.blanks();
    const c = this.peek();
    if (c === "(") {
      if (this.peek(1) === "(") refuse("arithmetic command");
      this.at++;
      const inner = this.nested(() => this.list(")"));
      if (this.peek() !== ")") refuse("unclosed subshell");
      this.at++;
      if (inner.trim() === "") refuse("empty subshell");
      const redirects = this.redirectsOnly();
      return redirects ? grouped(`(${inner})${redirects}`) : `(${inner})`;
    }
    if (this.atWord("{")) {
      this.at++;
      const inner = this.nested(() => this.list("}"));
      if (!this.atWord("}")) refuse("unclosed group");
      this.at++;
      if (inner.trim() === "") refuse("empty group");
      const separator = inner.endsWith("&") ? " " : "; ";
      const redirects = this.redirectsOnly();
      return redirects ? grouped(`{ ${inner}${separator}}${redirects}`) : `{ ${inner}${separator}}`;
    }
    return this.simple();
  }

  /** Redirections after a subshell or group. */
  private redirectsOnly(): string {
    let out = "";
    for (;;) {
      this.blanks();
      const redirect = this.redirect("");
      if (redirect === undefined) {
        const c = this.peek();
        if (c !== "" && !META.has(c)) refuse("word after a compound command");
        if (c === "(") refuse("unexpected (");
        return out;
      }
      out += ` ${redirect}`;
    }
  }

  private simple(): string {
    const parts: string[] = [];
    let named = false;
    let redirected = false;
    for (;;) {
      this.tick();
      this.blanks();
      const c = this.peek();
      if (c === "" || c === "\n" || c === ";" || c === ")" || c === "|") break;
      if (c === "&" && this.peek(1) !== ">") break;
      if (c === "(") refuse(named ? "( after a command name (a function definition or syntax error)" : "unexpected (");
      const fd = this.ioNumber();
      const redirect = this.redirect(fd);
      if (redirect !== undefined) {
        parts.push(redirect);
        redirected = true;
        continue;
      }
      if (fd !== "") refuse("descriptor without a redirection");
      const word = this.word(!named);
      if (word.substitution !== undefined) {
        if (!named) refuse("process substitution as a command name");
        parts.push(word.substitution);
        continue;
      }
      if (!named && word.assignment !== undefined) {
        parts.push(`${word.assignment}=${quoteWord(word.value.slice(word.assignment.length + 1))}`);
        continue;
      }
      if (!named) {
        if (!word.quoted && RESERVED.has(word.value)) refuse(`reserved word ${word.value}`);
        named = true;
        parts.push(word.value === "[" && !word.quoted ? "'['" : printWord(word, true));
      } else parts.push(printWord(word));
    }
    if (parts.length === 0) refuse("empty command");
    return redirected ? grouped(parts.join(" ")) : parts.join(" ");
  }

  /** Digits directly before `<` or `>` (an `n>` redirection): consumed and returned, else "". */
  private ioNumber(): string {
    let end = this.at;
    while (end < this.src.length && this.src[end]! >= "0" && this.src[end]! <= "9") end++;
    if (end === this.at || (this.src[end] !== "<" && this.src[end] !== ">")) return "";
    const fd = this.src.slice(this.at, end);
    this.at = end;
    return fd;
  }

  /** A redirection at the cursor, in canonical form; undefined (nothing consumed) when there is none. */
  private redirect(fd: string): string | undefined {
    const rest = this.src.slice(this.at, this.at + 3);
    const c = rest[0];
    if (c === "&" && rest[1] === ">") {
      if (fd !== "") refuse("descriptor before &>");
      const op = rest[2] === ">" ? "&>>" : "&>";
      this.at += op.length;
      return `${op}${this.target()}`;
    }
    if (c !== "<" && c !== ">") return undefined;
    if (c === "<" && rest[1] === "(") return undefined; // a process substitution word
    if (c === ">" && rest[1] === "(") return undefined;
    let op: string;
    if (rest.startsWith("<<<")) op = "<<<";
    else if (rest.startsWith("<<-")) op = "<<-";
    else if (rest.startsWith("<<")) op = "<<";
    else if (rest.startsWith("<>")) op = refuse("<> redirection");
    else if (rest.startsWith("<&") || rest.startsWith(">&")) op = rest.slice(0, 2);
    else if (rest.startsWith(">>") || rest.startsWith(">|")) op = rest.slice(0, 2);
    else op = c;
    this.at += op.length;
    if (op === "<<<") {
      this.blanks();
      const word = this.word(false);
      if (word.substitution !== undefined) refuse("here-string of a process substitution");
      return `${fd}<<< ${printWord(word)}`;
    }
    if (op === "<<" || op === "<<-") return this.heredoc(fd, op === "<<-");
    if (op === "<&" || op === ">&") {
      this.blanks();
      const word = this.word(false);
      if (word.quoted || !/^(\d+-?|-)$/.test(word.value)) refuse(`${op} to something other than a descriptor`);
      return `${fd}${op}${word.value}`;
    }
    return `${fd}${op} ${this.target()}`;
  }

  /** The file a redirection opens: a literal word or a process substitution. */
  private target(): string {
    this.blanks();
    const word = this.word(false);
    if (word.substitution !== undefined) return word.substitution;
    if (word.value === "") refuse("redirection to an empty name");
    return printWord(word);
  }

  private heredoc(fd: string, stripTabs: boolean): string {
    this.blanks();
    const start = this.at;
    const word = this.word(false);
    if (word.substitution !== undefined || word.value === "") refuse("heredoc delimiter");
    const written = this.src.slice(start, this.at);
    const slot = { text: "" };
    this.heredocs.push({ delimiter: word.value, literal: /['"\\]/.test(written), stripTabs, slot, fd });
    // The body is read at the next newline; the slot is filled then (strings are immutable, so the
    // caller's text is assembled from a getter-like placeholder replaced at the end).
    return this.placeholder(slot);
  }

  private readonly slots: { text: string }[] = [];

  private placeholder(slot: { text: string }): string {
    this.slots.push(slot);
    return `\u0000${this.slots.length - 1}\u0000`;
  }

  /**
   * Replaces heredoc placeholders by their here-strings, and the marks around redirected commands
   * by a `{ …; }` group — tree-sitter-bash reads `a && b > f` as `(a && b) > f`, bash as
   * `a && (b > f)`; in a group of its own the redirection can only belong to its command. A
   * program that is one redirected command needs no group.
   */
  finish(text: string): string {
    const single = text.startsWith(GROUP_OPEN) && text.endsWith(GROUP_CLOSE) && text.indexOf(GROUP_OPEN, 1) < 0;
    const marked = single ? text.slice(GROUP_OPEN.length, -GROUP_CLOSE.length) : text;
    return marked
      .replaceAll(GROUP_OPEN, "{ ")
      .replaceAll(GROUP_CLOSE, "; }")
      .replace(/\u0000(\d+)\u0000/g, (_, i: string) => this.slots[Number(i)]!.text);
  }

  private heredocBody(heredoc: PendingHeredoc): void {
    let body = "";
    for (;;) {
      this.tick();
      if (this.at >= this.src.length) refuse("heredoc without its delimiter");
      let end = this.src.indexOf("\n", this.at);
      if (end < 0) end = this.src.length;
      let line = this.src.slice(this.at, end);
      this.at = Math.min(end + 1, this.src.length);
      if (heredoc.stripTabs) line = line.replace(/^\t+/, "");
      if (line === heredoc.delimiter) break;
      if (!heredoc.literal && /[$`\\]/.test(line)) refuse("heredoc body with expansions");
      body += `${line}\n`;
    }
    heredoc.slot.text = `${heredoc.fd}<<< ${quoteWord(body.endsWith("\n") ? body.slice(0, -1) : body)}`;
  }

  /**
   * One word at the cursor. `commandPosition`: a `~` there follows the same rules (no special case);
   * an unquoted `NAME=` prefix is reported as an assignment candidate.
   */
  private word(commandPosition: boolean): LexedWord {
    const start = this.at;
    const c0 = this.peek();
    if ((c0 === "<" || c0 === ">") && this.peek(1) === "(") {
      this.at += 2;
      const inner = this.nested(() => this.list(")"));
      if (this.peek() !== ")") refuse("unclosed process substitution");
      this.at++;
      const after = this.peek();
      if (after !== "" && !META.has(after)) refuse("process substitution joined to a word");
      if (inner.trim() === "") refuse("empty process substitution");
      return { value: "", quoted: false, substitution: `${c0}(${inner})` };
    }
    let value = "";
    let quoted = false;
    let unquotedPrefix = ""; // the unquoted text before any quote, for assignment detection
    let sawQuote = false;
    let tilde = false;
    for (;;) {
      // A run of plain characters in one step (words can be 100 KB long).
      PLAIN_RUN.lastIndex = this.at;
      if (PLAIN_RUN.test(this.src)) {
        const run = this.src.slice(this.at, PLAIN_RUN.lastIndex);
        value += run;
        if (!sawQuote) unquotedPrefix += run;
        this.at = PLAIN_RUN.lastIndex;
        this.steps += run.length;
        this.tick();
        continue;
      }
      const c = this.peek();
      if (c === "" || META.has(c)) break;
      this.tick();
      const atStart = this.at === start;
      switch (c) {
        case "\\": {
          const next = this.peek(1);
          if (next === "\n") refuse("line continuation");
          if (next === "") refuse("backslash at the end");
          value += next;
          quoted = true;
          sawQuote = true;
          this.at += 2;
          continue;
        }
        case "'": {
          const end = this.src.indexOf("'", this.at + 1);
          if (end < 0) refuse("unterminated single quote");
          value += this.src.slice(this.at + 1, end);
          this.at = end + 1;
          quoted = true;
          sawQuote = true;
          continue;
        }
        case '"': {
          value += this.doubleQuoted();
          quoted = true;
          sawQuote = true;
          continue;
        }
        case "$":
          refuse("expansion ($)");
          break;
        case "`":
          refuse("command substitution (backtick)");
          break;
        case "*":
        case "?":
          refuse("glob");
          break;
        case "[": {
          const whole = atStart && (this.src[this.at + 1] === undefined || META.has(this.src[this.at + 1]!));
          if (!whole) refuse("glob ([)");
          break;
        }
        case "{":
        case "}":
          refuse("brace");
          break;
        case "~":
          if (atStart) {
            const next = this.peek(1);
            if (next !== "" && next !== "/" && !META.has(next)) refuse("~user");
            tilde = true;
            break;
          }
          if (!sawQuote && (value.includes("=") || value.endsWith(":"))) refuse("tilde after = or :");
          break;
        case "#":
          if (atStart) refuse("comment where a word goes");
          break;
        default:
          break;
      }
      value += c;
      if (!sawQuote) unquotedPrefix += c;
      this.at++;
    }
    const eq = unquotedPrefix.indexOf("=");
    const name = eq > 0 ? unquotedPrefix.slice(0, eq) : "";
    if (commandPosition && unquotedPrefix.includes("+=") && NAME.test(unquotedPrefix.slice(0, unquotedPrefix.indexOf("+=")))) refuse("+= assignment");
    const word: LexedWord = { value, quoted, ...(tilde ? { tilde } : {}) };
    if (commandPosition && eq > 0 && NAME.test(name) && value.startsWith(unquotedPrefix.slice(0, eq + 1))) word.assignment = name;
    return word;
  }

  private doubleQuoted(): string {
    let out = "";
    this.at++;
    for (;;) {
      const c = this.peek();
      if (c === "") refuse("unterminated double quote");
      this.tick();
      if (c === '"') {
        this.at++;
        return out;
      }
      if (c === "$") refuse("expansion ($) in double quotes");
      if (c === "`") refuse("command substitution (backtick) in double quotes");
      if (c === "\\") {
        const next = this.peek(1);
        if (next === "\n") refuse("line continuation in double quotes");
        if (next === "$" || next === "`" || next === '"' || next === "\\") {
          out += next;
          this.at += 2;
          continue;
        }
      }
      out += c;
      this.at++;
    }
  }
}
