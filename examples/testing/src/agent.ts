// The agent under test: Lathe with our tool and the built-in `write` tool, in a given workspace.
import { createAgent, type Agent, type AgentOptions } from "@lathe/core";
import { writeTool } from "@lathe/tools";
import { wordCountTool } from "./word-count-tool.ts";

export function createDocsAgent(options: { model: AgentOptions["model"]; cwd: string; dataDir?: string }): Agent {
  return createAgent({
    model: options.model,
    cwd: options.cwd,
    dataDir: options.dataDir,
    tools: [wordCountTool, writeTool],
    instructions: "You keep the documentation of this project tidy.",
    approve: async () => "once",
  });
}
