// Runs child processes a few at a time: the consumer check's linters and compilers are independent,
// and the machine's cores are better used than one after another.
import { spawn } from "node:child_process";
import { availableParallelism } from "node:os";

/** Runs a command; resolves with its exit status and output (never rejects for a failing command). */
export function runAsync(command, args, options = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}

/** Maps `items` through `task`, at most as many at once as the machine has cores; results in order. */
export async function inParallel(items, task, limit = Math.max(1, availableParallelism())) {
  const results = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index], index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
