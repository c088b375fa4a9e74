// A complete Lathe session, offline: a scripted model reads a file in a temporary workspace with a
// small tool, then answers. Swap `mockModel([...])` for a real AI SDK model (e.g. `anthropic(...)`)
// and the same code drives it.
//
//   npm run example   (builds the packages first when they are missing or stale)
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { z } from "zod";
import { createAgent } from "@lathe/core";
import { mockModel } from "@lathe/mock";
import { defineTool } from "@lathe/tools";

const workspace = mkdtempSync(join(tmpdir(), "lathe-example-"));
writeFileSync(join(workspace, "greeting.txt"), "Hello from the workspace!\n");

const readFile = defineTool({
  name: "read_file",
  description: "Reads a file of the workspace.",
  parameters: z.object({ path: z.string() }),
  readOnly: true,
  async execute({ path }, ctx) {
    const text = readFileSync(join(ctx.cwd, path), "utf8");
    return { title: path, output: text };
  },
});

const model = mockModel([
  { text: "Let me look at the file.", toolCalls: [{ name: "read_file", input: { path: "greeting.txt" } }] },
  { text: "The file says: Hello from the workspace!" },
]);

const agent = createAgent({ model, cwd: workspace, tools: [readFile], approve: async () => "once" });
const session = await agent.sessions.create({ title: "example" });
const run = agent.prompt(session.id, "What does greeting.txt say?");
for await (const event of run) {
  if (event.type === "message.part.updated" && event.part.type === "text" && event.delta) process.stdout.write(event.delta);
  if (event.type === "message.part.updated" && event.part.type === "tool" && event.part.state.status === "completed") {
    process.stdout.write(`\n[tool ${event.part.tool}: ${event.part.state.title}]\n`);
  }
}
const { info } = await run;
process.stdout.write(`\nfinish: ${info.finish}, tokens in/out: ${info.tokens.input}/${info.tokens.output}\n`);
await agent.close();
rmSync(workspace, { recursive: true, force: true });
