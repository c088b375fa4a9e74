// The end of a resumed session's conversation, so the user sees where it stopped: the last few turns,
// each the user's prompt, the assistant's text (shortened) and one line per tool call.
import type { Agent } from "@lathe/core";
import pc from "picocolors";
import { toolLabel } from "./turn-view.ts";

type MessageWithParts = Awaited<ReturnType<Agent["sessions"]["messages"]>>[number];

const TEXT_LINES = 6;

/** The last `turns` turns (a user message and the answers after it) as terminal lines. */
export function historyLines(messages: MessageWithParts[], turns = 3): string[] {
  const starts = messages.flatMap((message, index) => (message.info.role === "user" ? [index] : []));
  const first = starts.length > turns ? starts[starts.length - turns]! : 0;
  const lines: string[] = [];
  if (starts.length > turns) lines.push(pc.dim(`… ${starts.length - turns} earlier turn(s)`));
  for (const { info, parts } of messages.slice(first)) {
    for (const part of parts) {
      if (part.type === "text" && !part.synthetic && part.text.trim()) {
        if (info.role === "user") lines.push(`${pc.cyan("›")} ${part.text.trim()}`);
        else lines.push(...shortened(part.text.trim()));
      } else if (part.type === "tool") {
        const state = part.state.status;
        const mark = state === "completed" ? pc.green("✔") : state === "error" ? pc.red("✖") : pc.yellow("…");
        lines.push(`${mark} ${toolLabel(part)}`);
      }
    }
    if (info.role === "assistant" && info.error) lines.push(pc.red(`error ${info.error.message}`));
  }
  return lines;
}

function shortened(text: string): string[] {
  const lines = text.split("\n");
  if (lines.length <= TEXT_LINES) return lines;
  return [...lines.slice(0, TEXT_LINES), pc.dim(`  … ${lines.length - TEXT_LINES} more line(s)`)];
}
