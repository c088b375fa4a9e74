import { describe, expect, it } from "vitest";
import type { LatheUIMessage } from "@lathe/core";
import { transcript } from "../examples/web/app/transcript.ts";

// What examples/web shows of a conversation while messages are steered into a turn: the live
// stream's answer split where a message entered, the stored copies of a rejoined turn left out, and
// stored messages no step has read yet shown waiting.

const user = (id: string, text: string): LatheUIMessage => ({ id, role: "user", parts: [{ type: "text", text }] });
const answer = (id: string, parts: LatheUIMessage["parts"], finish?: string): LatheUIMessage => ({ id, role: "assistant", parts, ...(finish ? { metadata: { finish } as never } : {}) });
const text = (t: string): LatheUIMessage["parts"][number] => ({ type: "text", text: t, state: "done" });
const steer = (messageID: string, t: string): LatheUIMessage["parts"][number] => ({ type: "data-steer", id: messageID, data: { messageID, text: t } });
/** Each block as `kind role: text`. */
const shown = (messages: LatheUIMessage[], state: { busy: boolean; streaming: boolean }) =>
  transcript(messages, state).map((item) => {
    const words = item.message.parts.flatMap((part) => (part.type === "text" ? [part.text] : part.type.startsWith("tool-") ? ["[tool]"] : [])).join(" ");
    const kind = item.kind === "waiting" ? "waiting" : item.steered ? "steered" : item.message.role;
    return `${kind}: ${words}`;
  });
const streaming = { busy: true, streaming: true };

describe("examples/web's transcript", () => {
  it("splits a streaming answer where a message was steered in", () => {
    const live = answer("msg_02", [{ type: "step-start" }, text("Reading."), { type: "step-start" }, steer("msg_03", "keep it"), { type: "step-start" }, text("Kept.")]);
    expect(shown([user("msg_01", "Refactor"), live], streaming)).toEqual(["user: Refactor", "assistant: Reading.", "steered: keep it", "assistant: Kept."]);
    // Just entered, nothing after it yet: the answer so far, then the message — no empty answer.
    const entered = answer("msg_02", [{ type: "step-start" }, text("Reading."), steer("msg_03", "keep it"), { type: "step-start" }]);
    expect(shown([user("msg_01", "Refactor"), entered], streaming)).toEqual(["user: Refactor", "assistant: Reading.", "steered: keep it"]);
  });

  it("leaves out the stored copies a rejoined stream shows, and shows a message no step read yet as waiting", () => {
    // A reload mid-turn: the history (msg_03 steered, its answer msg_04), then the replay replaced msg_02.
    const replay = answer("msg_02", [text("Reading."), steer("msg_03", "keep it"), text("Kept.")]);
    const stored = [user("msg_01", "Refactor"), replay, user("msg_03", "keep it"), answer("msg_04", [text("Kept.")]), user("msg_05", "and the docs")];
    expect(shown(stored, streaming)).toEqual(["user: Refactor", "assistant: Reading.", "steered: keep it", "assistant: Kept.", "waiting: and the docs"]);
    // Before the replay's first chunk the running answer may come after the message it has not read.
    // (An answer with nothing to show yet is left out: the chat says "Working…".)
    expect(shown([user("msg_01", "Refactor"), user("msg_05", "and the docs"), answer("msg_02", [])], { busy: true, streaming: false })).toEqual([
      "user: Refactor",
      "waiting: and the docs",
    ]);
    // A stopped answer with nothing in it still says it was stopped.
    expect(shown([user("msg_01", "Refactor"), answer("msg_02", [{ type: "step-start" }], "aborted")], { busy: false, streaming: false })).toEqual(["user: Refactor", "assistant: "]);
  });

  it("shows nothing waiting when no turn runs, or for a prompt the page just sent", () => {
    const history = [user("msg_01", "Refactor"), answer("msg_02", [text("Done.")], "stop"), user("msg_03", "Then the docs"), answer("msg_04", [text("Docs.")], "stop")];
    expect(shown(history, { busy: false, streaming: false })).toEqual(["user: Refactor", "assistant: Done.", "user: Then the docs", "assistant: Docs."]);
    // useChat's own new prompt has an id the page made; the finished answer before it runs nothing.
    expect(shown([...history, user("Zx81abc", "One more")], { busy: true, streaming: false }).at(-1)).toBe("user: One more");
  });
});
