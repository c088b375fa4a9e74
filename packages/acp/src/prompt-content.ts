import { relative, isAbsolute } from "node:path";
import { fileURLToPath } from "node:url";
import type { ContentBlock } from "@agentclientprotocol/sdk";
import type { PromptPartInput } from "@lathe/core";

/** What an ACP prompt asks: a prompt for the agent, or one of its commands (`/name args`). */
export type AcpPromptRequest = { kind: "prompt"; parts: PromptPartInput[] } | { kind: "command"; name: string; args: string };

/** A prompt block Lathe cannot take (audio; a resource that is neither text nor a file). */
export class UnsupportedContentError extends Error {
  override readonly name = "UnsupportedContentError";
}

/**
 * Reads an ACP prompt as Lathe input. Text stays text. A resource link to a file becomes an `@`
 * reference the agent reads through its `read` tool — so the same permission rules apply as to any
 * read, and a file outside the workspace asks `external_directory` — or, for a path an `@` reference
 * cannot spell, a note naming the path. An embedded text resource (the editor's selection or buffer)
 * is given to the model as text with its URI; an embedded binary resource or an image becomes a file
 * part with a `data:` URL. Audio is refused (the agent does not announce it).
 *
 * A prompt made only of text whose first word is `/name` of one of `commands` runs that command
 * with the rest as its arguments.
 */
export function readPrompt(blocks: ContentBlock[], cwd: string, commands: ReadonlySet<string>): AcpPromptRequest {
  if (!Array.isArray(blocks) || blocks.length === 0) throw new UnsupportedContentError("The prompt is empty.");
  if (blocks.every((block) => block.type === "text")) {
    const text = blocks.map((block) => (block as { text: string }).text).join("");
    const command = /^\/([\w.:-]+)(?:\s+([\s\S]*))?$/.exec(text.trim());
    if (command && commands.has(command[1]!)) return { kind: "command", name: command[1]!, args: (command[2] ?? "").trim() };
  }
  const parts: PromptPartInput[] = [];
  for (const block of blocks) parts.push(...promptParts(block, cwd));
  if (parts.length === 0) throw new UnsupportedContentError("The prompt has no content the agent can read.");
  return { kind: "prompt", parts };
}

function promptParts(block: ContentBlock, cwd: string): PromptPartInput[] {
  switch (block.type) {
    case "text":
      return block.text ? [{ type: "text", text: block.text }] : [];
    case "image":
      return [{ type: "file", mime: block.mimeType, url: `data:${block.mimeType};base64,${block.data}`, ...(block.uri ? { filename: baseName(block.uri) } : {}) }];
    case "audio":
      throw new UnsupportedContentError("Audio prompts are not supported by this agent.");
    case "resource_link":
      return [{ type: "text", text: mention(block.uri, cwd) }];
    case "resource": {
      const resource = block.resource;
      if ("text" in resource) {
        const fence = resource.text.includes("```") ? "````" : "```";
        return [{ type: "text", text: `Contents of ${displayUri(resource.uri, cwd)}:\n${fence}\n${resource.text}\n${fence}` }];
      }
      const mime = resource.mimeType ?? "application/octet-stream";
      return [{ type: "file", mime, url: `data:${mime};base64,${resource.blob}`, filename: baseName(resource.uri) }];
    }
    default:
      throw new UnsupportedContentError(`Unknown prompt content type ${JSON.stringify((block as { type: unknown }).type)}.`);
  }
}

const REFERENCE_SAFE = /^[\w./~-][\w./~@+-]*$/;

/** An `@` reference to a linked file where one can spell it, else a note naming it. */
function mention(uri: string, cwd: string): string {
  const path = filePath(uri);
  if (!path) return `The user linked ${uri}.`;
  const inside = relative(cwd, path);
  const spelled = inside && !inside.startsWith("..") && !isAbsolute(inside) ? inside : path;
  return REFERENCE_SAFE.test(spelled) ? `@${spelled}` : `The user linked the file ${JSON.stringify(path)}: read it if it matters.`;
}

function filePath(uri: string): string | undefined {
  if (uri.startsWith("file:")) {
    try {
      return fileURLToPath(uri);
    } catch {
      return undefined;
    }
  }
  return isAbsolute(uri) ? uri : undefined;
}

function displayUri(uri: string, cwd: string): string {
  const path = filePath(uri);
  if (!path) return uri;
  const inside = relative(cwd, path);
  return inside && !inside.startsWith("..") ? inside : path;
}

function baseName(uri: string): string {
  return uri.split(/[\\/]/).pop() || uri;
}
