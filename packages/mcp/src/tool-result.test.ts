import { describe, expect, it } from "vitest";
import { convertResult, errorResultText } from "./tool-result.js";

describe("convertResult", () => {
  it("joins text blocks into the output", () => {
    expect(convertResult({ content: [{ type: "text", text: "one" }, { type: "text", text: "two" }] })).toEqual({ output: "one\n\ntwo", attachments: [], userContent: [] });
  });

  it("turns images, audio and embedded resources into data: URL attachments the output names", () => {
    const { output, attachments } = convertResult({
      content: [
        { type: "image", data: "AAAA", mimeType: "image/jpeg" },
        { type: "audio", data: "BBBB", mimeType: "audio/wav" },
        { type: "resource", resource: { uri: "file:///notes/today%20.md", text: "héllo" } },
        { type: "resource", resource: { uri: "mem://blob", mimeType: "application/pdf", blob: "CCCC" } },
      ],
    });
    expect(attachments).toEqual([
      { mime: "image/jpeg", url: "data:image/jpeg;base64,AAAA" },
      { mime: "audio/wav", url: "data:audio/wav;base64,BBBB" },
      { mime: "text/plain", url: `data:text/plain;base64,${Buffer.from("héllo").toString("base64")}`, filename: "today .md" },
      { mime: "application/pdf", url: "data:application/pdf;base64,CCCC", filename: "blob" },
    ]);
    expect(output.split("\n\n")).toEqual([
      "[image attached: image/jpeg]",
      "[audio attached: audio/wav]",
      "[resource attached: file:///notes/today%20.md (text/plain)]",
      "[resource attached: mem://blob (application/pdf)]",
    ]);
  });

  it("lists resource links and says so for content types it does not know", () => {
    const { output } = convertResult({
      content: [
        { type: "resource_link", uri: "file:///a.txt", name: "a.txt", mimeType: "text/plain", description: "the file" },
        { type: "hologram" } as never,
      ],
    });
    expect(output).toBe('[resource link: a.txt file:///a.txt (text/plain)] the file\n\n[unsupported MCP content of type "hologram"]');
  });

  it("uses structured content only when there is no text", () => {
    expect(convertResult({ content: [], structuredContent: { temperature: 21 } }).output).toBe('{\n  "temperature": 21\n}');
    expect(convertResult({ content: [{ type: "text", text: "21 degrees" }], structuredContent: { temperature: 21 } }).output).toBe("21 degrees");
    expect(convertResult({ content: [] })).toEqual({ output: "", attachments: [], userContent: [] });
  });

  it("gives the text of an error result", () => {
    expect(errorResultText({ isError: true, content: [{ type: "text", text: " no such repo \n" }] })).toBe("no such repo");
  });
});
