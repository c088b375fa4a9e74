import { readdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { TEMP_SUFFIX } from "./atomic-file.js";
import { CorruptRecordError, type CorruptRecordHandler } from "./errors.js";
import { isProcessAlive } from "./process-alive.js";

/** `<name>.<pid>-<hex>.tmp`: the temp names `tempPath` makes, with the writing process's id. */
const TEMP_NAME = /\.(\d+)-[0-9a-f]+\.tmp$/;

const isMissing = (error: unknown) => ["ENOENT", "ENOTDIR"].includes((error as NodeJS.ErrnoException).code ?? "");

async function entries(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch (error) {
    if (isMissing(error)) return [];
    throw error;
  }
}

/**
 * Removes the temp files and directories in `dir` left by processes that are gone (a crash between
 * writing a temp file and renaming it, or while deleting a renamed-aside tree). A temp file of a
 * live process is a write in progress and stays. Returns the names kept (not temp files).
 */
async function sweepTemps(dir: string): Promise<string[]> {
  const kept: string[] = [];
  for (const name of await entries(dir)) {
    if (!name.endsWith(TEMP_SUFFIX)) {
      kept.push(name);
      continue;
    }
    const pid = Number(TEMP_NAME.exec(name)?.[1] ?? 0);
    if (pid !== process.pid && !isProcessAlive(pid)) await rm(join(dir, name), { recursive: true, force: true });
  }
  return kept;
}

/**
 * What FileStorage does on open: removes leftover `*.tmp` files and directories of dead processes,
 * and reports (to `onCorrupt`, leaving them in place) parts stored under a message that is not: a
 * batch cut short writes parts first, and another process may be writing that message right now.
 */
export async function checkFileStore(dir: string, onCorrupt: CorruptRecordHandler): Promise<void> {
  await sweepTemps(dir);
  await sweepTemps(join(dir, "leases"));
  const sessions = join(dir, "sessions");
  for (const session of await sweepTemps(sessions)) {
    const sessionDir = join(sessions, session);
    await sweepTemps(sessionDir);
    const messages = join(sessionDir, "messages");
    for (const message of await sweepTemps(messages)) {
      const messageDir = join(messages, message);
      const files = await sweepTemps(messageDir);
      const parts = (await sweepTemps(join(messageDir, "parts"))).filter((n) => n.endsWith(".json"));
      if (parts.length > 0 && !files.includes("message.json")) {
        onCorrupt(
          new CorruptRecordError(
            { path: join(messageDir, "parts"), key: `${session}/${message}` },
            new Error(`${parts.length} part(s) whose message is not stored`),
          ),
        );
      }
    }
  }
}
