import { killGroup, spawnGroup } from "./process-group.js";
import type { FormatterRun } from "./formatters.js";
import { StderrTail } from "./stderr-tail.js";

/** Runs a formatter on `content` (stdin → stdout), in its own process group, bounded by `timeoutMs` and the signal. */
export function runFormatter(formatter: FormatterRun, content: string, cwd: string, timeoutMs: number, signal?: AbortSignal): Promise<string> {
  return new Promise((resolve, reject) => {
    const run = formatter.invocation;
    const child = spawnGroup(run.command, run.args, { cwd, stdio: ["pipe", "pipe", "pipe"], ...(formatter.env ? { env: { ...process.env, ...formatter.env } } : {}) });
    const out: Buffer[] = [];
    const stderr = new StderrTail(2000);
    let failure: Error | undefined;
    const stop = (error: Error) => {
      failure ??= error;
      killGroup(child.pid);
    };
    const timer = setTimeout(() => stop(new Error(`it took longer than ${timeoutMs} ms`)), timeoutMs);
    const onAbort = () => stop(new Error("aborted"));
    signal?.addEventListener("abort", onAbort, { once: true });
    child.stdout!.on("data", (chunk: Buffer) => out.push(chunk));
    child.stderr!.on("data", (chunk: Buffer) => stderr.push(chunk));
    child.stdin!.on("error", () => {});
    child.once("error", (error) => stop(error));
    child.once("close", (code) => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      if (failure) return reject(failure);
      if (code !== 0) return reject(new Error(`it exited with code ${code}${stderr.text() ? `: ${stderr.text()}` : ""}`));
      resolve(Buffer.concat(out).toString("utf8"));
    });
    child.stdin!.end(content);
  });
}
