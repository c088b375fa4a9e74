import type { ToolResult } from "@lathe/tools";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { isForModel } from "./audience.js";

/** What a tool result says to the model: its text, and the files that go with it. */
export interface ConvertedResult {
  output: string;
  attachments: ToolAttachment[];
  /** Content annotated for the user only (`audience: ["user"]`), as the server sent it: for the host, never the model. */
  userContent: Content[];
}

type Content = CallToolResult["content"][number];
type ToolAttachment = NonNullable<ToolResult["attachments"]>[number];

/**
 * Turns an MCP tool result into Lathe's terms: text blocks become the output; images, audio and
 * embedded resources become attachments (`data:` URLs) that the output names; resource links are
 * listed by URI. Structured content is used as the output only when the server sent no text, since
 * servers that send both put the same facts in the text. Content annotated for the user only is kept
 * out of the output and attachments (the output says how many such items there were) and returned
 * apart, for the host's UI.
 */
export function convertResult(result: CallToolResult): ConvertedResult {
  const text: string[] = [];
  const attachments: ToolAttachment[] = [];
  const userContent: Content[] = [];
  const content = result.content ?? [];
  for (const item of content) {
    if (isForModel((item as { annotations?: { audience?: string[] } }).annotations)) convertContent(item, text, attachments);
    else userContent.push(item);
  }
  // Text the server meant for the user alone must not come back to the model as structured content.
  if (!content.some((item) => item.type === "text") && result.structuredContent !== undefined) text.push(JSON.stringify(result.structuredContent, null, 2));
  if (userContent.length) text.push(`[${userContent.length} item${userContent.length === 1 ? "" : "s"} shown to the user only]`);
  return { output: text.join("\n\n"), attachments, userContent };
}

function convertContent(item: Content, text: string[], attachments: ToolAttachment[]): void {
  switch (item.type) {
    case "text":
      text.push(item.text);
      return;
    case "image":
    case "audio":
      attachments.push({ mime: item.mimeType, url: dataUrl(item.mimeType, item.data) });
      text.push(`[${item.type} attached: ${item.mimeType}]`);
      return;
    case "resource": {
      const resource = item.resource;
      const mime = resource.mimeType ?? ("text" in resource ? "text/plain" : "application/octet-stream");
      const data = "text" in resource ? Buffer.from(resource.text).toString("base64") : resource.blob;
      const filename = fileName(resource.uri);
      attachments.push({ mime, url: dataUrl(mime, data), ...(filename ? { filename } : {}) });
      text.push(`[resource attached: ${resource.uri} (${mime})]`);
      return;
    }
    case "resource_link":
      text.push(`[resource link: ${item.name} ${item.uri}${item.mimeType ? ` (${item.mimeType})` : ""}]${item.description ? ` ${item.description}` : ""}`);
      return;
    default:
      // A content type newer than this client: tell the model rather than dropping it silently.
      text.push(`[unsupported MCP content of type "${(item as { type: string }).type}"]`);
  }
}

function dataUrl(mime: string, base64: string): string {
  return `data:${mime};base64,${base64}`;
}

/** The last path segment of a resource URI, if it has one. */
function fileName(uri: string): string | undefined {
  const last = uri.replace(/[?#].*$/, "").split("/").filter(Boolean).pop();
  if (!last || last.endsWith(":")) return undefined;
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

/** The text of an error result, for the model. */
export function errorResultText(result: CallToolResult): string {
  return convertResult(result).output.trim();
}
