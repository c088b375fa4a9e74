/**
 * Compiles a glob with ripgrep's `--glob` meaning (gitignore syntax): a pattern without a `/` (other
 * than a trailing one) matches the name at any depth; one with a `/` is anchored to the search root;
 * `**` crosses folders, `*` and `?` do not; `[...]` classes; `{a,b}` alternatives; a leading `!`
 * excludes. Matching is case-sensitive, against `/`-separated paths relative to the search root.
 * Returns a test of file paths.
 */
export function compileGlob(glob: string): (relativePath: string) => boolean {
  const negated = glob.startsWith("!");
  let pattern = negated ? glob.slice(1) : glob;
  // A pattern for folders only never names a file.
  if (pattern.endsWith("/")) return () => negated;
  const anchored = pattern.includes("/");
  if (pattern.startsWith("/")) pattern = pattern.slice(1);
  const body = translate(pattern);
  const regex = new RegExp(anchored ? `^${body}$` : `^(?:.*/)?${body}$`);
  return (relativePath) => regex.test(relativePath) !== negated;
}

function translate(glob: string): string {
  let out = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === "*") {
      if (glob[i + 1] === "*") {
        const atStart = i === 0 || glob[i - 1] === "/";
        const atEnd = i + 2 === glob.length;
        if (atStart && glob[i + 2] === "/") {
          out += "(?:.*/)?";
          i += 2;
        } else if (atStart && atEnd) {
          out += ".*";
          i += 1;
        } else {
          out += "[^/]*";
          i += 1;
        }
      } else out += "[^/]*";
    } else if (c === "?") out += "[^/]";
    else if (c === "[") {
      const close = glob.indexOf("]", i + 2);
      if (close === -1) out += "\\[";
      else {
        let cls = glob.slice(i + 1, close);
        if (cls.startsWith("!")) cls = `^${cls.slice(1)}`;
        out += `[${cls.replace(/\\/g, "\\\\")}]`;
        i = close;
      }
    } else if (c === "{") {
      const close = matchingBrace(glob, i);
      if (close === -1) out += "\\{";
      else {
        out += `(?:${splitAlternatives(glob.slice(i + 1, close)).map(translate).join("|")})`;
        i = close;
      }
    } else if (c === "\\" && i + 1 < glob.length) out += escape(glob[++i]!);
    else out += escape(c);
  }
  return out;
}

function matchingBrace(glob: string, open: number): number {
  let depth = 0;
  for (let i = open; i < glob.length; i++) {
    if (glob[i] === "\\") i++;
    else if (glob[i] === "{") depth++;
    else if (glob[i] === "}" && --depth === 0) return i;
  }
  return -1;
}

function splitAlternatives(inner: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < inner.length; i++) {
    const c = inner[i];
    if (c === "\\") i++;
    else if (c === "{") depth++;
    else if (c === "}") depth--;
    else if (c === "," && depth === 0) {
      parts.push(inner.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(inner.slice(start));
  return parts;
}

function escape(c: string): string {
  return /[.+^$(){}|[\]\\*?]/.test(c) ? `\\${c}` : c;
}

/** True when the text holds glob syntax (`*`, `?`, `[`, `{`). */
export function hasGlobSyntax(text: string): boolean {
  return /[*?[{]/.test(text);
}
