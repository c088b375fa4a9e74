import { readdir } from "node:fs/promises";
import path from "node:path";

/**
 * Up to `max` entries of the missing file's folder whose names look like its name (one contains the
 * other, case aside, or they are a few edits apart), closest first, as absolute paths.
 */
export async function similarNames(absolute: string, max = 3): Promise<string[]> {
  const dir = path.dirname(absolute);
  const wanted = path.basename(absolute).toLowerCase();
  const entries = await readdir(dir).catch(() => [] as string[]);
  return entries
    .map((name) => ({ name, score: likeness(wanted, name.toLowerCase()) }))
    .filter((entry) => entry.score !== undefined)
    .sort((a, b) => a.score! - b.score! || a.name.localeCompare(b.name))
    .slice(0, max)
    .map((entry) => path.join(dir, entry.name));
}

// Lower is closer; undefined means not alike.
function likeness(wanted: string, name: string): number | undefined {
  if (name.includes(wanted) || wanted.includes(name)) return Math.abs(name.length - wanted.length) / 100;
  const distance = editDistance(wanted, name);
  return distance <= Math.max(2, Math.floor(wanted.length / 3)) ? distance : undefined;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}
