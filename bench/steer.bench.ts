// Steer latency in a long session: with a 10,000-message history, the time from
// `agent.prompt(id, text, { whileBusy: "steer" })` during a step to the model's next request (which
// carries the message), next to two baselines measured in the same run on the same session:
// - the same step boundary without a steer (a tool result → the next request): what steering adds;
// - a plain next turn (`agent.prompt` on the idle session → its first request): what a host that
//   waited for the turn to end and then sent the message would pay at the least (it also waits for
//   the rest of the running turn, not counted here).
// Both are wall time on a model that answers at once; the runs alternate so load drifts weigh alike.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createAgent, type Agent } from "@lathe/core";
import { createId, emptyTokens, type MessageWithParts } from "@lathe/message";
import { mockModel, type MockTurn } from "@lathe/mock";
import { MemoryStorage } from "@lathe/storage";
import { noopTool } from "./lib/long-session.ts";
import { report } from "./lib/report.ts";

const HISTORY = Number(process.env.STEER_HISTORY ?? 10_000);
const RUNS = Number(process.env.STEER_RUNS ?? 15);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** A finished session of `count` messages: user prompts, each answered in one step. */
function history(sessionID: string, cwd: string, count: number): MessageWithParts[] {
  const messages: MessageWithParts[] = [];
  for (let i = 0; i < count / 2; i++) {
    const now = Date.now();
    const userID = createId("message");
    messages.push({
      info: { id: userID, sessionID, role: "user", time: { created: now }, agent: "build" },
      parts: [{ id: createId("part"), sessionID, messageID: userID, type: "text", text: `Task ${i}: look at module ${i % 97} and tell me what it does.` }],
    });
    const answerID = createId("message");
    const part = { sessionID, messageID: answerID };
    messages.push({
      info: { id: answerID, sessionID, role: "assistant", parentID: userID, time: { created: now, completed: now }, providerID: "mock", modelID: "mock-model", agent: "build", cwd, tokens: emptyTokens(), cost: 0, finish: "stop" },
      parts: [
        { ...part, id: createId("part"), type: "step-start" },
        { ...part, id: createId("part"), type: "text", text: `Module ${i % 97} parses the configuration and hands it to the loader. `.repeat(3) },
        { ...part, id: createId("part"), type: "step-finish", reason: "stop", tokens: emptyTokens(), cost: 0 },
      ],
    });
  }
  return messages;
}

/** What the scripted model does on its next request; set by each measurement. */
let onRequest: () => MockTurn = () => ({ text: "done" });
const answer = (): MockTurn => ({ text: "done" });
const callTool = (): MockTurn => ({ text: "looking", toolCalls: [{ name: "noop", input: { step: 1 } }] });

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), "lathe-bench-steer-"));
  const storage = new MemoryStorage();
  const model = mockModel(Array.from({ length: RUNS * 12 + 20 }, () => () => onRequest()));
  const agent: Agent = createAgent({ model, storage, tools: [noopTool], snapshots: false, dataDir: dir, instructions: "You are a test." });
  const session = await agent.sessions.create();
  const seeded = history(session.id, dir, HISTORY);
  await storage.write({ messages: seeded.map((m) => m.info), parts: seeded.flatMap((m) => m.parts) });
  // A first turn loads and converts the history, as any running session has.
  onRequest = answer;
  await agent.prompt(session.id, "warm up");

  /** A turn of two steps, with a message steered in while step 1 streams or not. Returns ms from the steer (or step 1's tool result) to request 2. */
  const stepGap = async (steer: boolean): Promise<number> => {
    let sentAt = 0;
    let requestedAt = 0;
    let steered: Promise<unknown> | undefined;
    onRequest = () => {
      onRequest = () => {
        requestedAt = performance.now();
        onRequest = answer;
        return answer();
      };
      if (steer) {
        sentAt = performance.now();
        const run = agent.prompt(session.id, "use the other module instead", { whileBusy: "steer" });
        steered = run.then(() => undefined);
      }
      return callTool();
    };
    const tool = new Promise<void>((resolve) => {
      const listener = (event: { type: string; part?: { type: string; state?: { status: string } } }) => {
        if (event.part?.type === "tool" && event.part.state?.status === "completed") {
          if (!steer) sentAt = performance.now();
          agent.off("message.part.updated", listener);
          resolve();
        }
      };
      agent.on("message.part.updated", listener);
    });
    const { info } = await agent.prompt(session.id, "go on");
    await tool;
    await steered;
    if (info.finish !== "stop") throw new Error(`turn ended ${info.finish}: ${JSON.stringify(info.error)}`);
    model.calls.length = 0;
    return requestedAt - sentAt;
  };

  /** Ms from `agent.prompt` on the idle session to the turn's first request. */
  const nextTurn = async (): Promise<number> => {
    let requestedAt = 0;
    onRequest = () => {
      requestedAt = performance.now();
      return answer();
    };
    const sentAt = performance.now();
    await agent.prompt(session.id, "use the other module instead");
    model.calls.length = 0;
    return requestedAt - sentAt;
  };

  await stepGap(true);
  await stepGap(false);
  await nextTurn();
  const steers: number[] = [];
  const plainSteps: number[] = [];
  const turns: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    steers.push(await stepGap(true));
    plainSteps.push(await stepGap(false));
    turns.push(await nextTurn());
  }
  const messages = (await agent.sessions.messages(session.id)).length;
  await agent.close();
  rmSync(dir, { recursive: true, force: true });
  const steer = median(steers);
  report(import.meta.url, [
    {
      name: `steer latency, message sent during a step → in the next request (${HISTORY.toLocaleString("en")}-message history)`,
      value: steer,
      baseline: "the same step boundary without a steer (tool result → next request)",
      baselineValue: median(plainSteps),
      note: `median of ${RUNS}; the steer is sent while the step streams, so its time includes the step's tool call`,
    },
    {
      name: `steer latency vs a plain next turn's first request (${HISTORY.toLocaleString("en")}-message history)`,
      value: steer,
      baseline: "agent.prompt on the idle session → first request",
      baselineValue: median(turns),
      note: `${messages.toLocaleString("en")} messages at the end`,
    },
  ]);
}

await main();
