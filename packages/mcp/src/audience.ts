// MCP's `audience` annotation: content meant for the user only stays out of the model's input.

/** Who content is for, as MCP annotates it. */
export type McpAudience = ReadonlyArray<"user" | "assistant">;

/**
 * Whether content with these annotations may go into the model's input: yes unless it names an
 * audience that leaves the assistant out (`["user"]`). Content without annotations is for both.
 */
export function isForModel(annotations: { audience?: readonly string[] | undefined } | null | undefined): boolean {
  const audience = annotations?.audience;
  return audience === undefined || audience.includes("assistant");
}
