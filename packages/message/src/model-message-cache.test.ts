import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { MessageWithParts } from "./message-with-parts.js";
import type { Part, ToolPart } from "./part.js";
import { assistantMsg, toolCall, userMsg } from "./test-helpers.js";
import { ModelMessageCache, toModelMessages } from "./to-model-messages.js";

const model = { providerID: "p", modelID: "m" };

/** An assistant message of `steps` steps, each some text and one tool call. */
function steps(count: number): MessageWithParts {
  const parts: Array<Record<string, unknown>> = [];
  for (let i = 0; i < count; i++) parts.push({ type: "step-start" }, { type: "text", text: `step ${i}` }, toolCall(`call_${i}`, 10 + i));
  return assistantMsg("msg_a", "msg_u", parts);
}

describe("ModelMessageCache", () => {
  it("finds messages whose same parts sit in new arrays (a history rebuilt), and hands back an unchanged message's messages as they are", () => {
    const cache = new ModelMessageCache();
    const history = [userMsg("msg_u", "go"), steps(3)];
    const first = toModelMessages(history, { model, cache });
    const rebuilt = history.map((m) => ({ info: { ...m.info }, parts: m.parts.slice() }));
    const again = toModelMessages(rebuilt, { model, cache });
    expect(again).toEqual(toModelMessages(rebuilt, { model }));
    for (let i = 0; i < first.length; i++) expect(again[i]).toBe(first[i]);
    // A user message with another part in the same place is converted again.
    const edited = [{ info: history[0]!.info, parts: [{ ...history[0]!.parts[0]!, text: "stop" } as Part] }, history[1]!];
    expect(toModelMessages(edited, { model, cache })[0]).toEqual({ role: "user", content: [{ type: "text", text: "stop" }] });
    // A part reported changed, or a part added, makes the message's messages anew.
    const parts = history[1]!.parts;
    (parts[1] as Part & { text: string }).text = "changed";
    cache.changed(parts[1]!);
    const changed = toModelMessages(history, { model, cache });
    expect(changed).toEqual(toModelMessages(history, { model }));
    parts.push(...steps(4).parts.slice(9));
    expect(toModelMessages(history, { model, cache })).toEqual(toModelMessages(history, { model }));
  });

  it("gives what toModelMessages gives, and reuses the messages of steps it has seen", () => {
    const cache = new ModelMessageCache();
    const history = [userMsg("msg_u", "go"), steps(3)];
    const first = toModelMessages(history, { model, cache });
    expect(first).toEqual(toModelMessages(history, { model }));
    const grown = [history[0]!, { info: history[1]!.info, parts: [...history[1]!.parts, ...steps(4).parts.slice(9)] }];
    const second = toModelMessages(grown, { model, cache });
    expect(second).toEqual(toModelMessages(grown, { model }));
    // The three steps seen before are the same objects; only the new one was converted.
    for (let i = 1; i < first.length; i++) expect(second[i]).toBe(first[i]);
  });

  it("converts a step again when one of its parts is reported changed (text, tool state, ignored)", () => {
    const cache = new ModelMessageCache();
    const history = [steps(2)];
    toModelMessages(history, { model, cache });
    const parts = history[0]!.parts;
    const text = parts[1] as Part & { text: string };
    text.text = "rewritten";
    const tool = parts[2] as ToolPart;
    tool.state = { ...tool.state, status: "error", error: "boom" } as ToolPart["state"];
    cache.changed(text);
    cache.changed(tool);
    expect(toModelMessages(history, { model, cache })).toEqual(toModelMessages(history, { model }));
    (parts[4] as Part & { ignored?: boolean }).ignored = true;
    cache.changed(parts[4]!);
    expect(toModelMessages(history, { model, cache })).toEqual(toModelMessages(history, { model }));
    // Parts taken out: after clear() the history is converted anew.
    parts.splice(3, 3);
    cache.clear();
    expect(toModelMessages(history, { model, cache })).toEqual(toModelMessages(history, { model }));
  });

  it("matches toModelMessages for any growth and reported edits of a history", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 1, max: 4 }), fc.nat(5), fc.boolean()), { minLength: 1, maxLength: 6 }), (rounds) => {
        const cache = new ModelMessageCache();
        const message = steps(0);
        for (const [added, edit, otherModel] of rounds) {
          const start = message.parts.length / 3;
          message.parts.push(...steps(start + added).parts.slice(start * 3));
          const target = message.parts[edit % message.parts.length] as Part & { text?: string };
          if (target.type === "text") target.text = `${target.text}!`;
          cache.changed(target);
          const options = { model: otherModel ? { providerID: "x", modelID: "y" } : model };
          expect(toModelMessages([message], { ...options, cache })).toEqual(toModelMessages([message], options));
        }
      }),
    );
  });

  it("gives back the same object for a user message it has seen, and converts it again when told it changed", () => {
    const cache = new ModelMessageCache();
    const history = [userMsg("msg_u", "go"), steps(1)];
    const first = toModelMessages(history, { model, cache });
    const second = toModelMessages(history, { model, cache });
    expect(second[0]).toBe(first[0]);
    const text = history[0]!.parts[0] as Part & { text: string };
    text.text = "stop";
    cache.changed(text);
    const third = toModelMessages(history, { model, cache });
    expect(third).toEqual(toModelMessages(history, { model }));
    expect(third[0]).not.toBe(first[0]);
  });

  it("copies the complete steps of a long message in one go, still matching toModelMessages after an edit deep in it", () => {
    const cache = new ModelMessageCache();
    const message = steps(50);
    const before = toModelMessages([message], { model, cache });
    message.parts.push(...steps(51).parts.slice(150));
    const grown = toModelMessages([message], { model, cache });
    for (let i = 0; i < before.length - 2; i++) expect(grown[i]).toBe(before[i]);
    const deep = message.parts[4] as Part & { text: string };
    deep.text = "edited";
    cache.changed(deep);
    expect(toModelMessages([message], { model, cache })).toEqual(toModelMessages([message], { model }));
  });

  it("converts a user message again when one of its parts was replaced by a new object", () => {
    const cache = new ModelMessageCache();
    const history = [userMsg("msg_u", "go"), steps(1)];
    toModelMessages(history, { model, cache });
    const parts = history[0]!.parts;
    parts[0] = { ...(parts[0] as Part & { text: string }), text: "stop" } as Part;
    expect(toModelMessages(history, { model, cache })).toEqual(toModelMessages(history, { model }));
  });

  it("keeps a step's messages when only a part the conversion never reads changed (a snapshot landing on its bounds)", () => {
    const cache = new ModelMessageCache();
    const message = steps(2);
    message.parts.push({ type: "step-finish", snapshot: undefined } as unknown as Part);
    const before = toModelMessages([message], { model, cache });
    message.parts.push(...steps(3).parts.slice(6));
    toModelMessages([message], { model, cache });
    for (const bound of message.parts.filter((p) => p.type === "step-start" || p.type === "step-finish")) {
      (bound as Part & { snapshot?: string }).snapshot = "tree";
      cache.changed(bound);
    }
    const after = toModelMessages([message], { model, cache });
    expect(after).toEqual(toModelMessages([message], { model }));
    for (let i = 0; i < before.length; i++) expect(after[i]).toBe(before[i]);
  });
});
