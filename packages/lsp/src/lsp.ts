import path from "node:path";
import type { Diagnostics, DiagnosticsReport, DiagnosticsWorkspace, FormattedContent } from "@lathe/tools";
import { ServerClient, ServerStartError } from "./client.js";
import { formatterFor } from "./formatters.js";
import { nearestRoot } from "./locate.js";
import { LspOptionsSchema, type LspOptions } from "./options.js";
import { likelyDependents } from "./related-files.js";
import { runFormatter } from "./run-formatter.js";
import { serverDefinitions, type LaunchWorkspace, type ServerDefinition } from "./servers.js";
import { lastLines } from "./stderr-tail.js";
import { withDeadline } from "./wait.js";

/** One server for one root: its running client (or start in flight), and how it has fared. */
interface ServerSlot {
  server: ServerDefinition;
  root: string;
  /** The workspace it was started for: what it may run depends on whether the host trusts it. */
  workspace: LaunchWorkspace;
  client?: Promise<ServerClient>;
  failures: number;
  off: boolean;
  /** Not before this time (epoch ms) is a crashed server started again. */
  restartAt: number;
  /** The process of the current client, from its spawn on (also while it initialises). */
  pid?: number | undefined;
}

/** What a tool sees of a server while it waits: ready, still starting, or unavailable. */
type Acquired = { client: ServerClient } | { pending: true } | undefined;

const MAX_FAILURES = 2;

/**
 * Lathe's language servers: an implementation of `@lathe/tools`' {@link Diagnostics} that starts a
 * server per language and workspace root the first time a tool touches a matching file (never
 * before), syncs written files to it, waits (bounded) for its diagnostics, and formats files with
 * the project's formatter. A server that crashes is restarted once after a delay, then switched off
 * for the session with a note in the next result. Made by {@link createLsp}.
 */
export class Lsp implements Diagnostics {
  private readonly options: ReturnType<typeof LspOptionsSchema.parse>;
  private readonly servers: ServerDefinition[];
  private readonly slots = new Map<string, ServerSlot>();
  private readonly notes: string[] = [];
  /** Fires on close: servers still starting are killed. */
  private readonly closing = new AbortController();
  private closed = false;
  private installed: ServerDefinition[] | undefined;

  constructor(options: LspOptions = {}) {
    this.options = LspOptionsSchema.parse(options);
    this.servers = serverDefinitions(this.options.servers);
  }

  private get timeoutMs(): number {
    return this.options.timeoutMs ?? 5000;
  }

  /** The servers this instance may start, by id. */
  serverIds(): string[] {
    return this.servers.map((s) => s.id);
  }

  /** Process ids of the servers running now (for hosts that watch resources, and tests). */
  pids(): number[] {
    return [...this.slots.values()].flatMap((s) => (s.client && s.pid !== undefined ? [s.pid] : []));
  }

  prompt(): string | undefined {
    // Only the servers that can run here (their program found from the host's folder or on PATH).
    // Judged as for an untrusted workspace: a server counts only when the host itself has it.
    this.installed ??= this.servers.filter((s) => s.launch(process.cwd(), { cwd: process.cwd(), trusted: false }) !== undefined);
    if (this.installed.length === 0) return undefined;
    const languages = this.installed.map((s) => `${s.id} (${s.extensions.join(" ")})`).join(", ");
    return [
      `Language servers are on: ${languages}.`,
      "After edit, write, multiedit and apply_patch, the errors they find in the files you changed are appended to the tool's result (write also reports new errors in files that depend on it): fix them before you move on.",
      "The diagnostics tool shows the current problems of a file, or of every open file.",
    ].join("\n");
  }

  async sync(files: string[], options: DiagnosticsWorkspace & { related?: boolean }): Promise<DiagnosticsReport> {
    const deadline = Date.now() + this.timeoutMs;
    const report: DiagnosticsReport = { files: {}, before: {}, notes: [] };
    await Promise.all(
      [...this.group(files, options.cwd, options.trusted === true)].map(async ([slot, touched]) => {
        const acquired = await this.acquire(slot, deadline, options.signal);
        if (!acquired || !("client" in acquired)) {
          if (acquired) report.notes.push(`The ${slot.server.id} language server is still starting; its diagnostics will come with later results.`);
          return;
        }
        const client = acquired.client;
        for (const [file, diagnostics] of client.diagnostics) if (!touched.includes(file)) report.before[file] = diagnostics;
        const related = options.related ? await this.openDependents(client, slot, touched) : [];
        const since = Date.now();
        try {
          for (const file of touched) await client.sync(file);
          const present = touched.filter((f) => client.isOpen(f));
          const answered = present.length === 0 || (await this.settle(client, present, related, since, deadline, options.signal));
          if (!answered && !options.signal?.aborted) report.notes.push(`The ${slot.server.id} language server did not report on ${present.map((f) => path.relative(options.cwd, f)).join(", ")} within ${this.timeoutMs} ms; its diagnostics may be incomplete.`);
        } catch {
          // The server died mid-request: its exit handler records the crash and the note.
        }
        for (const [file, diagnostics] of client.diagnostics) report.files[file] = diagnostics;
        for (const file of touched) if (client.isOpen(file)) report.files[file] ??= [];
      }),
    );
    report.notes.unshift(...this.notes.splice(0));
    return report;
  }

  async current(options: DiagnosticsWorkspace & { file?: string }): Promise<DiagnosticsReport> {
    if (options.file !== undefined) return this.sync([options.file], options);
    const report: DiagnosticsReport = { files: {}, before: {}, notes: [] };
    const deadline = Date.now() + this.timeoutMs;
    const trusted = options.trusted === true;
    await Promise.all(
      // Only the servers started for this workspace and trust: another workspace's open files are not its business.
      [...this.slots.values()].filter((slot) => slot.workspace.cwd === path.resolve(options.cwd) && slot.workspace.trusted === trusted).map(async (slot) => {
        const client = slot.client && !slot.off ? await withDeadline(slot.client.catch(() => undefined), deadline, options.signal) : undefined;
        if (!client) return;
        if (client.canPull) await withDeadline(Promise.all(client.openFiles().map((f) => client.pull(f))), deadline, options.signal).catch(() => undefined);
        for (const [file, diagnostics] of client.diagnostics) report.files[file] = diagnostics;
      }),
    );
    report.notes.push(...this.notes.splice(0));
    return report;
  }

  async format(file: string, content: string, options: DiagnosticsWorkspace): Promise<FormattedContent | undefined> {
    if (this.options.formatters === false || this.closed) return undefined;
    const formatter = formatterFor(file, options.cwd, this.options.formatters ?? {}, options.trusted === true);
    if (!formatter) return undefined;
    const formatted = await runFormatter(formatter, content, path.dirname(file), this.options.formatTimeoutMs ?? 10_000, options.signal);
    return { content: formatted, formatter: formatter.name };
  }

  async close(): Promise<void> {
    this.closed = true;
    this.closing.abort();
    const slots = [...this.slots.values()];
    this.slots.clear();
    await Promise.allSettled(slots.map(async (slot) => (await slot.client?.catch(() => undefined))?.close()));
  }

  // Files by the server slot (server × root × trust) that handles them; files no server handles are left out.
  private group(files: string[], cwd: string, trusted: boolean): Map<ServerSlot, string[]> {
    const groups = new Map<ServerSlot, string[]>();
    for (const file of files) {
      const ext = path.extname(file).toLowerCase();
      const server = this.servers.find((s) => s.extensions.includes(ext));
      if (!server) continue;
      const root = nearestRoot(path.dirname(file), server.rootMarkers, cwd) ?? (path.relative(cwd, file).startsWith("..") ? path.dirname(file) : cwd);
      const key = `${server.id}\0${root}\0${trusted ? "trusted" : "untrusted"}`;
      let slot = this.slots.get(key);
      if (!slot) this.slots.set(key, (slot = { server, root, workspace: { cwd: path.resolve(cwd), trusted }, failures: 0, off: false, restartAt: 0 }));
      groups.set(slot, [...(groups.get(slot) ?? []), file]);
    }
    return groups;
  }

  // The slot's client, started if needed; waits no later than the deadline.
  private async acquire(slot: ServerSlot, deadline: number, signal?: AbortSignal): Promise<Acquired> {
    if (slot.off || this.closed) return undefined;
    if (!slot.client) {
      const delay = slot.restartAt - Date.now();
      if (delay > 0) {
        if (Date.now() + delay > deadline) return { pending: true };
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
      const launch = slot.server.launch(slot.root, slot.workspace);
      if (!launch) {
        slot.off = true;
        return undefined;
      }
      slot.client = this.start(slot, launch);
    }
    const client = await withDeadline(slot.client.catch(() => undefined), deadline, signal);
    if (client) return { client };
    return !slot.off && slot.client !== undefined ? { pending: true } : undefined;
  }

  private start(slot: ServerSlot, launch: NonNullable<ReturnType<ServerDefinition["launch"]>>): Promise<ServerClient> {
    const started = ServerClient.start(slot.server, slot.root, launch, this.options.startTimeoutMs ?? 45_000, this.closing.signal, (pid) => (slot.pid = pid));
    started.then(
      (client) => {
        if (this.closed) return void client.close();
        void client.exited.then((exit) => {
          if (client.isClosing || this.closed) return;
          this.failed(slot, `exited unexpectedly (${exit.signal ?? `code ${exit.code}`})${exit.stderr ? `; its output ended with: ${lastLines(exit.stderr)}` : ""}`);
        });
      },
      (error: unknown) => {
        if (!this.closed) this.failed(slot, error instanceof ServerStartError ? error.message : String(error));
      },
    );
    return started;
  }

  // A crash or failed start: restart once after a delay, then switch the server off with a note.
  private failed(slot: ServerSlot, why: string): void {
    slot.client = undefined;
    slot.failures++;
    const name = `The ${slot.server.id} language server${this.slotsFor(slot.server).length > 1 ? ` for ${slot.root}` : ""}`;
    if (slot.failures >= MAX_FAILURES) {
      slot.off = true;
      this.notes.push(`${name} ${why}. It failed ${slot.failures} times and is switched off for this session: no diagnostics for ${slot.server.extensions.join(" ")} files.`);
      return;
    }
    slot.restartAt = Date.now() + (this.options.restartDelayMs ?? 1000) * slot.failures;
    this.notes.push(`${name} ${why}; it will be restarted.`);
  }

  private slotsFor(server: ServerDefinition): ServerSlot[] {
    return [...this.slots.values()].filter((s) => s.server === server);
  }

  // For `write`: open files of the same server that may import the written ones, so their new errors show.
  private async openDependents(client: ServerClient, slot: ServerSlot, touched: string[]): Promise<string[]> {
    const limit = this.options.maxRelatedFiles ?? 10;
    if (limit === 0) return [];
    const dependents = await likelyDependents(slot.root, touched, slot.server.extensions, limit);
    const opened: string[] = [];
    // Sent again even when open: not every server re-checks the dependents of a changed file.
    for (const file of dependents) {
      await client.sync(file).catch(() => undefined);
      if (client.isOpen(file)) opened.push(file);
    }
    return opened;
  }

  // Fresh diagnostics of the touched (and related) files: asked for when the server can answer, else awaited.
  private async settle(client: ServerClient, touched: string[], related: string[], since: number, deadline: number, signal?: AbortSignal): Promise<boolean> {
    if (client.canPull) {
      const pulled = await withDeadline(Promise.all([...touched, ...related].map((f) => client.pull(f))), deadline, signal);
      return pulled !== undefined;
    }
    return client.waitForPublish(touched, since, this.options.settleMs ?? 150, deadline, signal);
  }
}

/**
 * Language servers and formatters for an agent: `createAgent({ lsp: createLsp() })`. Nothing starts
 * until a tool touches a matching file; `agent.close()` stops every server.
 *
 * @example
 * ```ts
 * import { createLsp } from "@lathe/lsp";
 * const lsp = createLsp({ servers: { gopls: false }, formatters: { prettier: false } });
 * ```
 */
export function createLsp(options: LspOptions = {}): Lsp {
  return new Lsp(options);
}

export type { Diagnostic } from "@lathe/tools";
