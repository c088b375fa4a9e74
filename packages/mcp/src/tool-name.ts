import { createHash } from "node:crypto";

/** Longest tool name providers accept. */
export const MAX_TOOL_NAME = 64;

/**
 * The name the model calls an MCP tool by: `<server>_<tool>` with every character outside
 * `[a-zA-Z0-9_-]` replaced by `_`, at most 64 characters. A name that had to be shortened, or that
 * collides with one already in `taken`, ends in a short hash of the original pair so it stays unique
 * and stable across runs.
 */
export function mcpToolName(server: string, tool: string, taken: ReadonlySet<string> = new Set()): string {
  const plain = `${sanitize(server)}_${sanitize(tool)}`;
  if (plain.length <= MAX_TOOL_NAME && !taken.has(plain)) return plain;
  for (let attempt = 0; ; attempt++) {
    const hash = createHash("sha256").update(`${server}\0${tool}\0${attempt}`).digest("hex").slice(0, 8);
    const name = `${plain.slice(0, MAX_TOOL_NAME - hash.length - 1)}_${hash}`;
    if (!taken.has(name)) return name;
  }
}

function sanitize(text: string): string {
  return text.replace(/[^a-zA-Z0-9_-]/g, "_");
}
