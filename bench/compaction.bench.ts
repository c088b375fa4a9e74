// Compaction: building the model's messages for a long compacted session. A synthetic 10,000-part
// history (≈500 turns; each turn a user text and an assistant answer of a few steps — step-start,
// text, 2–3 tool calls with 0.5–4 KB outputs, step-finish — and one active compaction with a verbatim
// tail in the middle) goes through modelView and toModelMessages, as the loop does before each
// request. Baseline: a plain JSON copy of the same stored messages, measured in the same run.
//
// Then a 500-turn scripted session through the agent with a small context window: each turn reads a
// 2 KB "file" and answers; the mock model counts every prompt's tokens. Figures: the largest prompt
// sent against the window (must stay under it), and the session's wall time against the same
// session with a window large enough never to compact.
import {
  modelView,
  toModelMessages,
  emptyTokens,
  type MessageWithParts,
  type ModelRef,
  type Part,
} from "@lathe/message";
import type { LanguageModelV4CallOptions } from "@ai-sdk/provider";
import { createAgent, SUMMARY_PROMPT } from "@lathe/core";
import { mockModel, type MockTurn } from "@lathe/mock";
import { defineTool } from "@lathe/tools";
import { z } from "zod";
import { medianMs, report, type BenchFigure } from "./lib/report.ts";

const PARTS = 10_000;
const model: ModelRef = { providerID: "mock", modelID: "mock-model" };
const sessionID = "ses_bench";

// A small seeded generator, so every run builds the same session.
let seed = 42;
function random(): number {
  seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
  return seed / 2_147_483_648;
}
const between = (low: number, high: number) => low + Math.floor(random() * (high - low + 1));
const pad = (n: number) => String(n).padStart(6, "0");

function syntheticSession(): { history: MessageWithParts[]; turns: number } {
  const history: MessageWithParts[] = [];
  let parts = 0;
  let message = 0;
  let turn = 0;
  const nextId = () => `msg_${pad(++message)}`;
  const part = (messageID: string, fields: Record<string, unknown>): Part => {
    parts++;
    return { id: `prt_${pad(parts)}`, sessionID, messageID, ...fields } as Part;
  };
  const user = (fields: Array<Record<string, unknown>>): MessageWithParts => {
    const id = nextId();
    return { info: { id, sessionID, role: "user", time: { created: message }, agent: "build" }, parts: fields.map((f) => part(id, f)) };
  };
  const assistant = (parentID: string, extra: Record<string, unknown> = {}): MessageWithParts => {
    const id = nextId();
    const info = {
      id, sessionID, role: "assistant" as const, parentID, time: { created: message, completed: message + 1 },
      providerID: model.providerID, modelID: model.modelID, agent: "build", cwd: "/w", finish: "stop",
      tokens: emptyTokens(), cost: 0, ...extra,
    };
    return { info, parts: [] };
  };

  let compacted = false;
  let tailStart = "";
  while (parts < PARTS) {
    turn++;
    if (!compacted && parts >= PARTS / 2) {
      // the compaction in the middle keeps the last ten turns verbatim
      const c = user([{ type: "compaction", auto: true, tail: tailStart }]);
      const s = assistant(c.info.id, { agent: "compaction", summary: true });
      s.parts.push(part(s.info.id, { type: "step-start" }), part(s.info.id, { type: "text", text: "## Goal\n" + "summary ".repeat(400) }));
      history.push(c, s);
      compacted = true;
    }
    const u = user([{ type: "text", text: `Please look at module ${turn} and fix what is broken there.` }]);
    if (turn % 10 === 0) tailStart = u.info.id; // set before the compaction so its tail is ≈10 turns
    const a = assistant(u.info.id);
    const steps = between(3, 4);
    for (let step = 0; step < steps && parts < PARTS; step++) {
      a.parts.push(part(a.info.id, { type: "step-start" }));
      a.parts.push(part(a.info.id, { type: "text", text: `Step ${step}: reading the files involved and checking the tests.` }));
      const calls = between(2, 3);
      for (let call = 0; call < calls; call++) {
        const output = "export const value = 42; // line of source\n".repeat(Math.ceil(between(512, 4_096) / 44));
        a.parts.push(part(a.info.id, {
          type: "tool",
          callID: `call_${parts}`,
          tool: "read",
          state: { status: "completed", input: { path: `src/module-${turn}/file-${call}.ts` }, output, title: "read", metadata: {}, time: { start: 1, end: 2 } },
        }));
      }
      a.parts.push(part(a.info.id, { type: "step-finish", reason: "tool-calls", tokens: emptyTokens(), cost: 0 }));
    }
    history.push(u, a);
  }
  return { history, turns: turn };
}

async function modelMessagesFigure(): Promise<BenchFigure> {
  const { history, turns } = syntheticSession();
  const partCount = history.reduce((n, m) => n + m.parts.length, 0);
  const build = () => toModelMessages(modelView(history), { model });
  const view = modelView(history);
  if (view[0]?.parts[0]?.type !== "compaction") throw new Error("the synthetic session's view does not start at its compaction");
  const messages = build();
  const jsonMs = await medianMs(() => JSON.parse(JSON.stringify(history)), 15, 3);
  const buildMs = await medianMs(build, 15, 3);
  return {
    name: `model messages for a ${partCount.toLocaleString("en")}-part session (${turns} turns, compacted midway)`,
    value: buildMs,
    baseline: "JSON copy of the stored messages",
    baselineValue: jsonMs,
    target: "< 20 ms",
    note: `${view.length} of ${history.length} messages in the view → ${messages.length} model messages`,
  };
}

const TURNS = 500;

/** The text of the last user message of a model call. */
function lastUserText(call: LanguageModelV4CallOptions): string {
  const last = call.prompt.findLast((m) => m.role === "user");
  if (!last || typeof last.content === "string") return String(last?.content ?? "");
  return last.content.map((p) => (p.type === "text" ? p.text : "")).join("");
}

/** Runs the 500-turn session with a given window; returns its wall time, the largest prompt and how often it compacted. */
async function longSession(contextWindow: number): Promise<{ ms: number; largest: number; compactions: number; requests: number }> {
  const readFile = defineTool({
    name: "read_file",
    description: "Reads a file.",
    parameters: z.object({ path: z.string() }),
    readOnly: true,
    async execute({ path }) {
      return { title: path, output: `// ${path}\n${"export const value = 42; // a line of source\n".repeat(45)}`, metadata: {} };
    },
  });
  let largest = 0;
  const answer = (call: LanguageModelV4CallOptions): MockTurn => {
    largest = Math.max(largest, Math.ceil(JSON.stringify(call.prompt).length / 4));
    const last = lastUserText(call);
    if (last === SUMMARY_PROMPT) return { text: "## Goal\nReview every module.\n## Progress\n- Done: modules so far.\n## Next steps\nThe next module." };
    const lastMessage = call.prompt.at(-1);
    if (lastMessage?.role === "tool") return { text: "Module reviewed: nothing to change." };
    return { toolCalls: [{ name: "read_file", input: { path: `src/module-${last.length}.ts` } }] };
  };
  const model = mockModel(Array.from({ length: TURNS * 3 }, () => answer));
  const agent = createAgent({ model, tools: [readFile], snapshots: false, models: { "mock-model": { contextWindow, maxOutputTokens: 1_000 } } });
  const session = await agent.sessions.create({ title: "bench" });
  let compactions = 0;
  agent.on("session.compacted", () => compactions++);
  const start = performance.now();
  for (let turn = 1; turn <= TURNS; turn++) {
    const result = await agent.prompt(session.id, `Review module ${turn} and tell me if anything must change.`);
    if (result.info.error) throw new Error(`turn ${turn} failed: ${result.info.error.message}`);
  }
  const ms = performance.now() - start;
  await agent.close();
  return { ms, largest, compactions, requests: model.calls.length };
}

async function longSessionFigures(): Promise<BenchFigure[]> {
  const window = 16_000;
  const small = await longSession(window);
  const large = await longSession(10_000_000);
  return [
    {
      name: `largest prompt of a ${TURNS}-turn session under a ${window.toLocaleString("en")}-token window`,
      value: small.largest,
      unit: "tokens",
      baseline: "the context window",
      baselineValue: window,
      target: "< 1.0×",
      note: `${small.compactions} compactions, ${small.requests} requests`,
    },
    {
      name: `wall time of the ${TURNS}-turn session, compacting`,
      value: small.ms,
      baseline: "same session, never compacting (10M window)",
      baselineValue: large.ms,
      note: `largest prompt without compaction: ${large.largest.toLocaleString("en")} tokens`,
    },
  ];
}

const figures: BenchFigure[] = [await modelMessagesFigure(), ...(await longSessionFigures())];
report(import.meta.url, figures);
