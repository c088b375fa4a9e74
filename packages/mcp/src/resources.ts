// A server's resources in Lathe's terms, for hosts: what is listed, what a read returns, and the part
// of a read that may go into the model's input (content meant for the user only never does).
import type { ToolResult } from "@lathe/tools";
import type { ReadResourceResult, Resource, ResourceTemplate } from "@modelcontextprotocol/sdk/types.js";
import { UriTemplate } from "@modelcontextprotocol/sdk/shared/uriTemplate.js";
import { isForModel, type McpAudience } from "./audience.js";

type ToolAttachment = NonNullable<ToolResult["attachments"]>[number];

/** One resource a server lists. */
export interface McpResource {
  /** The server's name, as configured. */
  server: string;
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  /** Size in bytes, when the server says. */
  size?: number;
  /** Who the server says the resource is for; absent means both. */
  audience?: McpAudience;
  /** False when the resource is for the user only: never put it in the model's input. */
  forModel: boolean;
}

/** One resource template a server lists (`uriTemplate` is an RFC 6570 template, e.g. `file:///{path}`). */
export interface McpResourceTemplate {
  server: string;
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  audience?: McpAudience;
  forModel: boolean;
}

/** One item of a read resource: text, or binary as base64. */
export interface McpResourceContent {
  uri: string;
  mimeType?: string;
  text?: string;
  /** Base64. */
  blob?: string;
}

/** What reading a resource returned. */
export interface McpResourceRead {
  server: string;
  uri: string;
  /** Every item the server sent, for the host and its UI (whatever the audience). */
  contents: McpResourceContent[];
  /** Who the resource is for, from the server's listing (of the resource, or the template its URI matches). */
  audience?: McpAudience;
  /** False when the resource is for the user only. */
  forModel: boolean;
  /**
   * What may go into the model's input: the text of text items (each under its URI) and binary items
   * as attachments (`data:` URLs). Empty when the resource is for the user only.
   */
  modelInput: { text: string; attachments: ToolAttachment[] };
}

function described<T extends { title?: string; description?: string; mimeType?: string; annotations?: { audience?: McpAudience } }>(item: T) {
  const audience = item.annotations?.audience;
  return {
    ...(item.title !== undefined ? { title: item.title } : {}),
    ...(item.description !== undefined ? { description: item.description } : {}),
    ...(item.mimeType !== undefined ? { mimeType: item.mimeType } : {}),
    ...(audience !== undefined ? { audience: [...audience] } : {}),
    forModel: isForModel(item.annotations),
  };
}

/** A listed resource in Lathe's terms. */
export function toResource(server: string, resource: Resource): McpResource {
  return { server, uri: resource.uri, name: resource.name, ...(resource.size !== undefined ? { size: resource.size } : {}), ...described(resource) };
}

/** A listed template in Lathe's terms. */
export function toTemplate(server: string, template: ResourceTemplate): McpResourceTemplate {
  return { server, uriTemplate: template.uriTemplate, name: template.name, ...described(template) };
}

/**
 * The audience of `uri`: the listed resource's, else that of the first template the URI matches,
 * else none (for both). Reads carry no annotations of their own, so the listing decides.
 */
export function audienceOf(uri: string, resources: readonly McpResource[], templates: readonly McpResourceTemplate[]): McpAudience | undefined {
  const listed = resources.find((resource) => resource.uri === uri);
  if (listed) return listed.audience;
  for (const template of templates) {
    try {
      if (new UriTemplate(template.uriTemplate).match(uri)) return template.audience;
    } catch {
      // A template the SDK cannot parse matches nothing.
    }
  }
  return undefined;
}

/** A read in Lathe's terms, with the part the model may see. */
export function toRead(server: string, uri: string, result: ReadResourceResult, audience: McpAudience | undefined): McpResourceRead {
  const contents: McpResourceContent[] = result.contents.map((item) => ({
    uri: item.uri,
    ...(item.mimeType !== undefined ? { mimeType: item.mimeType } : {}),
    ...("text" in item && typeof item.text === "string" ? { text: item.text } : {}),
    ...("blob" in item && typeof item.blob === "string" ? { blob: item.blob } : {}),
  }));
  const forModel = isForModel(audience === undefined ? undefined : { audience });
  const text: string[] = [];
  const attachments: ToolAttachment[] = [];
  if (forModel) {
    for (const item of contents) {
      if (item.text !== undefined) text.push(`${item.uri}${item.mimeType ? ` (${item.mimeType})` : ""}:\n${item.text}`);
      else if (item.blob !== undefined) {
        const mime = item.mimeType ?? "application/octet-stream";
        attachments.push({ mime, url: `data:${mime};base64,${item.blob}` });
        text.push(`[resource attached: ${item.uri} (${mime})]`);
      }
    }
  }
  return { server, uri, contents, ...(audience !== undefined ? { audience: [...audience] } : {}), forModel, modelInput: { text: text.join("\n\n"), attachments } };
}
