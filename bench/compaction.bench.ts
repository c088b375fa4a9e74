// Compaction: building the model's messages for a long compacted session. A synthetic 10,000-part
// history (≈500 turns; each turn a user text and an assistant answer of a few steps — step-start,
// text, 2–3 tool calls with 0.5–4 KB outputs, step-finish — and one active compaction with a verbatim
// tail in the middle) goes through modelView and toModelMessages, as the loop does before each
// request. Baseline: a plain JSON copy of the same stored messages, measured in the same run.
import {
  modelView,
  toModelMessages,
  emptyTokens,
  type MessageWithParts,
  type ModelRef,
  type Part,
} from "@lathe/message";
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

const figures: BenchFigure[] = [await modelMessagesFigure()];
report(import.meta.url, figures);
