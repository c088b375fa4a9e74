import { spawn } from "node:child_process";

/**
 * Kills a running command's process group if this process dies first — killed with SIGKILL, out of
 * memory — which no handler of ours can do. A small detached watcher polls for this process (every
 * 200 ms) and, once it is gone, kills the group; it exits by itself when the group is gone. Returns
 * the function that ends the watch once the command has ended (background processes a command
 * leaves on purpose then live on, as before).
 */
export function guardOrphans(pgid: number): () => void {
  const script = `while kill -0 ${process.pid} 2>/dev/null; do kill -0 -${pgid} 2>/dev/null || exit 0; sleep 0.2; done; kill -KILL -${pgid} 2>/dev/null`;
  const watcher = spawn("/bin/sh", ["-c", script], { detached: true, stdio: "ignore" });
  watcher.on("error", () => {});
  watcher.unref();
  return () => {
    if (watcher.exitCode === null && watcher.signalCode === null) watcher.kill("SIGKILL");
  };
}
