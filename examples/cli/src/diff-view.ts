import pc from "picocolors";

/** A unified diff coloured for the terminal: additions green, removals red, hunk headers cyan. */
export function colorDiff(diff: string, indent = "    "): string {
  return diff
    .replace(/\n$/, "")
    .split("\n")
    .filter((line) => !line.startsWith("Index:") && !/^=+$/.test(line))
    .map((line) => {
      if (line.startsWith("+++") || line.startsWith("---")) return indent + pc.dim(line);
      if (line.startsWith("@@")) return indent + pc.cyan(line);
      if (line.startsWith("+")) return indent + pc.green(line);
      if (line.startsWith("-")) return indent + pc.red(line);
      return indent + pc.dim(line);
    })
    .join("\n");
}
