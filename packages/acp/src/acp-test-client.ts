// Test support: the ACP SDK's own client, connected to serveAcp over in-memory pipes as an editor
// would be over stdio, recording every update and answering approvals as a test tells it to. Every
// update is checked against the protocol's published JSON schema.
import { createRequire } from "node:module";
import * as acp from "@agentclientprotocol/sdk";
import { Ajv2020 } from "ajv/dist/2020.js";
import { serveAcp, type ServeAcpOptions } from "./serve.js";

const require = createRequire(import.meta.url);
const schema = require("@agentclientprotocol/sdk/schema/v1/schema.json") as { $defs: Record<string, unknown> };
const ajv = new Ajv2020({ strict: false, allErrors: true });
// The schema's numeric formats (Rust's integer and float types).
const integer = (min: number, max: number) => ({ type: "number" as const, validate: (n: number) => Number.isInteger(n) && n >= min && n <= max });
ajv.addFormat("uint32", integer(0, 2 ** 32 - 1));
ajv.addFormat("uint64", integer(0, Number.MAX_SAFE_INTEGER));
ajv.addFormat("int64", integer(-Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER));
ajv.addFormat("uint16", integer(0, 65_535));
ajv.addFormat("int32", integer(-(2 ** 31), 2 ** 31 - 1));
ajv.addFormat("double", { type: "number", validate: (n: number) => Number.isFinite(n) });
ajv.addSchema({ $id: "acp", $defs: schema.$defs });
const validNotification = ajv.getSchema("acp#/$defs/SessionNotification")!;

export interface TestEditor {
  agent: acp.ClientContext;
  updates: acp.SessionNotification[];
  permissions: acp.RequestPermissionRequest[];
  invalid: unknown[];
  /** The editor's open buffers by absolute path (served to `fs/read_text_file`). */
  buffers: Map<string, string>;
  /** What the agent wrote through `fs/write_text_file`, in order. */
  written: Array<{ path: string; content: string }>;
  /** How the next approvals are answered: an option id, or "cancelled". */
  answer: (request: acp.RequestPermissionRequest) => string | Promise<string>;
  served: Promise<void>;
  close(): Promise<void>;
}

/** Starts serveAcp and an SDK client connected to it; `initialize` already answered. */
export async function connectEditor(
  options: Omit<ServeAcpOptions, "input" | "output">,
  capabilities: acp.ClientCapabilities = {},
): Promise<TestEditor & { initialized: acp.InitializeResponse }> {
  const toAgent = new TransformStream<Uint8Array, Uint8Array>();
  const toEditor = new TransformStream<Uint8Array, Uint8Array>();
  const served = serveAcp({ ...options, input: toAgent.readable, output: toEditor.writable });
  const editor: Partial<TestEditor> = { updates: [], permissions: [], invalid: [], answer: () => "once", buffers: new Map(), written: [] };
  const app = acp
    .client({ name: "test-editor" })
    .onNotification("session/update", ({ params }) => {
      if (!validNotification(params)) editor.invalid!.push({ params, errors: validNotification.errors });
      editor.updates!.push(params);
    })
    .onRequest("session/request_permission", async ({ params }) => {
      editor.permissions!.push(params);
      const choice = await editor.answer!(params);
      return choice === "cancelled" ? { outcome: { outcome: "cancelled" } } : { outcome: { outcome: "selected", optionId: choice } };
    });
  if (capabilities.fs?.readTextFile) {
    app.onRequest("fs/read_text_file", ({ params }) => {
      const text = editor.buffers!.get(params.path);
      if (text === undefined) throw acp.RequestError.resourceNotFound(params.path);
      return { content: text };
    });
  }
  if (capabilities.fs?.writeTextFile) {
    app.onRequest("fs/write_text_file", ({ params }) => {
      editor.written!.push({ path: params.path, content: params.content });
      editor.buffers!.set(params.path, params.content);
      return {};
    });
  }
  const connection = app.connect(acp.ndJsonStream(toAgent.writable, toEditor.readable));
  const initialized = await connection.agent.request("initialize", { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: capabilities });
  return Object.assign(editor as TestEditor, {
    agent: connection.agent,
    served,
    initialized,
    close: async () => {
      connection.close();
      // An editor that quits closes the agent's stdin: that is what ends serveAcp.
      await toAgent.writable.close().catch(() => {});
      await served;
    },
  });
}
