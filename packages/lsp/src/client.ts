import type { ChildProcess } from "node:child_process";
import { readFile } from "node:fs/promises";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Diagnostic } from "@lathe/tools";
import { StreamMessageReader, StreamMessageWriter } from "vscode-jsonrpc/node";
import {
  createProtocolConnection,
  DidChangeTextDocumentNotification,
  DidCloseTextDocumentNotification,
  DidOpenTextDocumentNotification,
  DidSaveTextDocumentNotification,
  DocumentDiagnosticRequest,
  ExecuteCommandRequest,
  ExitNotification,
  InitializedNotification,
  InitializeRequest,
  PublishDiagnosticsNotification,
  ShutdownRequest,
  type ProtocolConnection,
} from "vscode-languageserver-protocol/node";
import { fromLsp, fromTsServer, type TsServerDiagnostic } from "./convert.js";
import { killGroup, spawnGroup } from "./process-group.js";
import { languageId, type ServerDefinition, type ServerLaunch } from "./servers.js";
import { lastLines, StderrTail } from "./stderr-tail.js";
import { boundedWait } from "./wait.js";

/** How a server process ended. */
export interface ServerExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** The end of what it wrote to stderr. */
  stderr: string;
}

/**
 * One language server process for one workspace root: started in its own process group, spoken to
 * over stdio with `vscode-jsonrpc`, its published diagnostics kept by file, its stderr captured.
 */
export class ServerClient {
  /** Current diagnostics by absolute path (pushed by the server or pulled by Lathe). */
  readonly diagnostics = new Map<string, Diagnostic[]>();
  /** Resolves when the process ends, for whatever reason. */
  readonly exited: Promise<ServerExit>;
  private readonly connection: ProtocolConnection;
  private readonly stderr = new StderrTail();
  private readonly versions = new Map<string, number>();
  private readonly published = new Map<string, number>();
  private readonly listeners = new Set<() => void>();
  private pullSupported = false;
  private closing = false;

  private constructor(
    readonly server: ServerDefinition,
    readonly root: string,
    private readonly child: ChildProcess,
  ) {
    child.stderr!.on("data", (chunk: Buffer) => this.stderr.push(chunk));
    this.exited = new Promise((resolve) => {
      child.once("error", (error) => {
        this.stderr.push(Buffer.from(`${error.message}\n`));
        resolve({ code: null, signal: null, stderr: this.stderr.text() });
      });
      child.once("exit", (code, signal) => resolve({ code, signal, stderr: this.stderr.text() }));
    });
    this.connection = createProtocolConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
    // A server that dies makes writes fail; its exit is reported through `exited`, not as a throw here.
    child.stdin!.on("error", () => {});
    this.connection.onError(() => {});
    this.connection.onNotification(PublishDiagnosticsNotification.type, (params) => {
      if (!params.uri.startsWith("file:")) return;
      const file = fileURLToPath(params.uri);
      this.diagnostics.set(file, params.diagnostics.map((d) => fromLsp(params.uri, d)));
      this.published.set(file, Date.now());
      for (const listener of this.listeners) listener();
    });
    // Requests servers make of their client: answer plainly so that none waits on us.
    this.connection.onRequest("workspace/configuration", (params: { items?: unknown[] }) => (params.items ?? []).map(() => null));
    this.connection.onRequest("window/workDoneProgress/create", () => null);
    this.connection.onRequest("client/registerCapability", () => null);
    this.connection.onRequest("client/unregisterCapability", () => null);
    this.connection.onRequest("workspace/workspaceFolders", () => [{ uri: pathToFileURL(root).href, name: root }]);
    this.connection.onNotification("window/logMessage", () => {});
    this.connection.onNotification("window/showMessage", () => {});
    this.connection.listen();
  }

  /**
   * Spawns the server for `root` and initialises it; rejects (the process killed) if it exits first,
   * takes longer than `timeoutMs`, or `cancel` fires.
   */
  static async start(server: ServerDefinition, root: string, launch: ServerLaunch, timeoutMs: number, cancel: AbortSignal, onSpawn?: (pid: number | undefined) => void): Promise<ServerClient> {
    const child = spawnGroup(launch.invocation.command, launch.invocation.args, {
      cwd: root,
      stdio: ["pipe", "pipe", "pipe"],
      env: { ...process.env, ...launch.env },
    });
    onSpawn?.(child.pid);
    const client = new ServerClient(server, root, child);
    const rootUri = pathToFileURL(root).href;
    const initialize = client.connection.sendRequest(InitializeRequest.type, {
      processId: process.pid,
      rootUri,
      workspaceFolders: [{ uri: rootUri, name: root }],
      initializationOptions: launch.initializationOptions ?? null,
      capabilities: {
        workspace: { configuration: true, workspaceFolders: true },
        textDocument: {
          synchronization: { didSave: true, dynamicRegistration: false },
          publishDiagnostics: { relatedInformation: false, versionSupport: true },
          diagnostic: { dynamicRegistration: false, relatedDocumentSupport: false },
        },
        window: { workDoneProgress: true },
      },
    });
    const outcome = await Promise.race([
      initialize.then((result) => ({ result })),
      client.exited.then((exit) => ({ exit })),
      new Promise<"timeout">((resolve) => setTimeout(() => resolve("timeout"), timeoutMs).unref()),
      new Promise<{ error: string }>((resolve) => {
        if (cancel.aborted) resolve({ error: "closed" });
        cancel.addEventListener("abort", () => resolve({ error: "closed" }), { once: true });
      }),
    ]).catch((error: unknown) => ({ error }));
    if (outcome === "timeout" || !("result" in outcome)) {
      await client.kill();
      const exit = await client.exited;
      const why =
        outcome === "timeout" ? `did not answer within ${timeoutMs} ms` : "exit" in outcome ? `exited (${outcome.exit.signal ?? `code ${outcome.exit.code}`})` : `failed: ${String((outcome as { error: unknown }).error)}`;
      throw new ServerStartError(`${why}${exit.stderr ? `; its output ended with: ${lastLines(exit.stderr)}` : ""}`);
    }
    client.pullSupported = outcome.result.capabilities.diagnosticProvider !== undefined;
    await client.connection.sendNotification(InitializedNotification.type, {});
    return client;
  }

  /** The process id (the leader of its process group). */
  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Whether the file is open in the server. */
  isOpen(file: string): boolean {
    return this.versions.has(file);
  }

  /** Open files, by absolute path. */
  openFiles(): string[] {
    return [...this.versions.keys()];
  }

  /**
   * Sends the file's content on disk: `didOpen` the first time, then `didChange` (full text) and
   * `didSave`; a file gone from disk is closed (`didClose`) and its diagnostics dropped.
   */
  async sync(file: string): Promise<void> {
    const uri = pathToFileURL(file).href;
    const text = await readFile(file, "utf8").catch((error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") return undefined;
      throw error;
    });
    if (text === undefined) {
      if (this.versions.delete(file)) await this.connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri } });
      this.diagnostics.delete(file);
      return;
    }
    const version = (this.versions.get(file) ?? 0) + 1;
    const opened = this.versions.has(file);
    this.versions.set(file, version);
    if (!opened) {
      await this.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: languageId(this.server, file), version, text } });
      return;
    }
    await this.connection.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri, version }, contentChanges: [{ text }] });
    await this.connection.sendNotification(DidSaveTextDocumentNotification.type, { textDocument: { uri }, text });
  }

  /** Whether diagnostics can be asked for rather than waited for. */
  get canPull(): boolean {
    return this.server.tsserver === true || this.pullSupported;
  }

  /** Asks the server for the file's diagnostics now and stores them; `false` when it cannot answer that way. */
  async pull(file: string): Promise<boolean> {
    if (this.server.tsserver) {
      const ask = (command: string) =>
        this.connection.sendRequest(ExecuteCommandRequest.type, { command: "typescript.tsserverRequest", arguments: [command, { file, includeLinePosition: false }] }) as Promise<unknown>;
      const [syntactic, semantic] = await Promise.all([ask("syntacticDiagnosticsSync"), ask("semanticDiagnosticsSync")]);
      const list = [...tsBody(syntactic), ...tsBody(semantic)];
      this.diagnostics.set(file, list.map((d) => fromTsServer(file, d)));
      return true;
    }
    if (!this.pullSupported) return false;
    const report = await this.connection.sendRequest(DocumentDiagnosticRequest.type, { textDocument: { uri: pathToFileURL(file).href } });
    if (report.kind === "full") this.diagnostics.set(file, report.items.map((d) => fromLsp(pathToFileURL(file).href, d)));
    return true;
  }

  /**
   * Waits for diagnostics of `files` published after `since`, then until none has come for
   * `settleMs` (servers publish in several passes); at most until `deadline` or the signal.
   */
  async waitForPublish(files: string[], since: number, settleMs: number, deadline: number, signal?: AbortSignal): Promise<boolean> {
    return boundedWait(deadline, signal, (done) => {
      let settle: NodeJS.Timeout | undefined;
      const check = () => {
        if (!files.every((f) => (this.published.get(f) ?? 0) >= since)) return;
        clearTimeout(settle);
        settle = setTimeout(() => done(true), settleMs);
      };
      this.listeners.add(check);
      check();
      return () => {
        clearTimeout(settle);
        this.listeners.delete(check);
      };
    });
  }

  /** Asks the server to shut down (bounded), then kills its process group whatever it did. */
  async close(graceMs = 1000): Promise<void> {
    if (this.closing) return this.exited.then(() => undefined);
    this.closing = true;
    const polite = (async () => {
      await this.connection.sendRequest(ShutdownRequest.type);
      await this.connection.sendNotification(ExitNotification.type);
    })().catch(() => {});
    await Promise.race([polite.then(() => this.exited), new Promise((resolve) => setTimeout(resolve, graceMs).unref())]);
    await this.kill();
  }

  /** True once {@link close} was called: an exit after that is no crash. */
  get isClosing(): boolean {
    return this.closing;
  }

  /** Kills the whole process group now. */
  async kill(): Promise<void> {
    this.closing = true;
    killGroup(this.child.pid, "SIGKILL");
    this.connection.dispose();
    await this.exited;
  }
}

/** A server that could not be started or initialised. */
export class ServerStartError extends Error {
  override readonly name = "ServerStartError";
}

function tsBody(response: unknown): TsServerDiagnostic[] {
  const body = (response as { body?: unknown } | undefined)?.body ?? response;
  return Array.isArray(body) ? (body as TsServerDiagnostic[]) : [];
}
