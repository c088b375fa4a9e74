import { randomUUID } from "node:crypto";
import { mkdir, rename, stat, unlink, writeFile } from "node:fs/promises";
import path from "node:path";

/**
 * Writes a file atomically: the content goes to a temporary file beside it, which is then renamed
 * over the target, so readers see the old or the new content, never half of it. Parent folders are
 * made; an existing file keeps its permission bits.
 */
export async function writeFileAtomic(absolute: string, content: string | Uint8Array): Promise<void> {
  const dir = path.dirname(absolute);
  await mkdir(dir, { recursive: true });
  const mode = await stat(absolute).then(
    (info) => info.mode & 0o7777,
    () => undefined,
  );
  const temp = path.join(dir, `.${path.basename(absolute)}.${randomUUID().slice(0, 8)}.tmp`);
  try {
    await writeFile(temp, content, mode === undefined ? {} : { mode });
    await rename(temp, absolute);
  } catch (error) {
    await unlink(temp).catch(() => {});
    throw error;
  }
}
