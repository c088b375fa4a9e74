/**
 * Lathe agents in editors: {@link serveAcp} serves an agent over the Agent Client Protocol, so Zed,
 * JetBrains IDEs, Neovim and Emacs clients run it like any ACP agent — prompts, streamed answers and
 * reasoning, tool calls with diffs, the todo list as a plan, commands, modes, approvals in the editor,
 * and stored sessions loaded again.
 *
 * @module @lathe/acp
 */
export { serveAcp, type ServeAcpOptions, type AcpAgentFactory, type AcpSessionSetup } from "./serve.js";
export { readPrompt, UnsupportedContentError, type AcpPromptRequest } from "./prompt-content.js";
export { UnsupportedMcpServerError } from "./mcp-servers.js";
export { ACP_MODES } from "./modes.js";
