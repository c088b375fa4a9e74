import { readdir, readFile, stat } from "node:fs/promises";
import path from "node:path";

const SKIP = new Set(["node_modules", ".git", "dist", "build", "out", "target", ".venv", "venv", "__pycache__", ".next", "coverage"]);
/** Files looked at, at most, per search (a huge tree is not read whole after every write). */
const MAX_SCANNED = 5000;
const MAX_FILE_BYTES = 512 * 1024;

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * Files under `root` with one of `extensions` that may depend on `changed`: they name its module
 * (the file's name without extension, or its folder's for an `index` file) as a whole word. A cheap
 * over-approximation, capped at `limit` files, so that the servers check the likely importers of a
 * changed file (servers report problems only for the files they have open).
 */
export async function likelyDependents(root: string, changed: string[], extensions: readonly string[], limit: number): Promise<string[]> {
  const names = [...new Set(changed.map((file) => {
    const stem = path.basename(file, path.extname(file));
    return stem === "index" || stem === "__init__" ? path.basename(path.dirname(file)) : stem;
  }))].filter((n) => n.length > 0);
  if (names.length === 0) return [];
  const pattern = new RegExp(`\\b(${names.map(escape).join("|")})\\b`);
  const found: string[] = [];
  let scanned = 0;
  const walk = async (dir: string): Promise<void> => {
    if (found.length >= limit || scanned >= MAX_SCANNED) return;
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (found.length >= limit || scanned >= MAX_SCANNED) return;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!SKIP.has(entry.name) && !entry.name.startsWith(".")) await walk(full);
        continue;
      }
      if (!entry.isFile() || !extensions.includes(path.extname(entry.name).toLowerCase()) || changed.includes(full)) continue;
      scanned++;
      const size = (await stat(full).catch(() => undefined))?.size ?? Infinity;
      if (size > MAX_FILE_BYTES) continue;
      const text = await readFile(full, "utf8").catch(() => "");
      if (pattern.test(text)) found.push(full);
    }
  };
  await walk(root);
  return found;
}
