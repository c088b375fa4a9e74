import type * as acp from "@agentclientprotocol/sdk";
import { writeFileAtomic, type FileAccess } from "@lathe/tools";

/**
 * The editor's files as Lathe's {@link FileAccess}, for an editor that offers `fs/read_text_file`
 * and `fs/write_text_file`: the agent reads the editor's buffers (unsaved changes included) and
 * writes through the editor, which then tracks the change. A file the editor cannot read is read
 * from the disk; a side the editor does not offer stays on the disk. `sessionOf` names the editor's
 * session a Lathe session belongs to (a subagent's session reads through its parent's).
 */
export function editorFiles(
  client: () => acp.AgentContext | undefined,
  capabilities: acp.FileSystemCapabilities | undefined,
  sessionOf: (sessionID: string) => Promise<string | undefined>,
): FileAccess | undefined {
  if (!capabilities?.readTextFile && !capabilities?.writeTextFile) return undefined;
  return {
    async readText(path, { sessionID, signal }) {
      const connection = client();
      const sessionId = await sessionOf(sessionID);
      if (!capabilities.readTextFile || !connection || !sessionId) return undefined;
      try {
        return (await connection.request("fs/read_text_file", { sessionId, path }, { cancellationSignal: signal })).content;
      } catch {
        return undefined; // no such buffer or file in the editor: the disk decides
      }
    },
    async writeText(path, text, { sessionID, signal }) {
      const connection = client();
      const sessionId = await sessionOf(sessionID);
      if (!capabilities.writeTextFile || !connection || !sessionId) return writeFileAtomic(path, text);
      await connection.request("fs/write_text_file", { sessionId, path, content: text }, { cancellationSignal: signal });
    },
  };
}
