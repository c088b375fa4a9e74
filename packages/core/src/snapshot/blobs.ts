// Reads many objects from the shadow repository with one `git cat-file --batch`.
import type { ShadowRepository } from "./shadow-repository.js";
import { GitOutputError } from "./errors.js";

/** The content of each object id (ids given twice are read once). */
export async function readBlobs(repo: ShadowRepository, ids: readonly string[]): Promise<Map<string, Buffer>> {
  const unique = [...new Set(ids)];
  const blobs = new Map<string, Buffer>();
  if (unique.length === 0) return blobs;
  const output = await repo.git(["cat-file", "--batch"], { input: unique.map((id) => `${id}\n`).join("") });
  let offset = 0;
  for (const id of unique) {
    const headerEnd = output.indexOf(0x0a, offset);
    if (headerEnd < 0) throw new GitOutputError("cat-file --batch", output.subarray(offset).toString("utf8"));
    const header = output.subarray(offset, headerEnd).toString("utf8");
    const match = /^([0-9a-f]+) \S+ (\d+)$/.exec(header);
    if (!match || match[1] !== id) throw new GitOutputError("cat-file --batch", header);
    const size = Number(match[2]);
    blobs.set(id, output.subarray(headerEnd + 1, headerEnd + 1 + size));
    offset = headerEnd + 1 + size + 1;
  }
  return blobs;
}
