import { expectTypeOf, test } from "vitest";
import { z } from "zod";
import type { Agent } from "../agent.js";
import type { RunResult } from "../loop/run.js";

declare const agent: Agent;

test("`output` is typed as the schema's type", async () => {
  const schema = z.object({ verdict: z.enum(["approve", "reject"]), findings: z.array(z.string()) });
  const result = await agent.prompt("s", "review", { output: schema });
  expectTypeOf(result.output).toEqualTypeOf<{ verdict: "approve" | "reject"; findings: string[] } | undefined>();
  expectTypeOf(result).toEqualTypeOf<RunResult<{ verdict: "approve" | "reject"; findings: string[] }>>();
});

test("without a schema there is no output", async () => {
  const result = await agent.prompt("s", "hi", { agent: "build" });
  expectTypeOf(result.output).toEqualTypeOf<undefined>();
  const plain = await agent.prompt("s", "hi");
  expectTypeOf(plain.output).toEqualTypeOf<undefined>();
});

test("the run's `then` and iteration keep the type", () => {
  const run = agent.prompt("s", "n", { output: z.number() });
  void run.then((r) => expectTypeOf(r.output).toEqualTypeOf<number | undefined>());
});
