import { describe, expect, it } from "vitest";
import { MAX_TOOL_NAME, mcpToolName } from "./tool-name.js";

describe("mcpToolName", () => {
  it("joins server and tool with _ and replaces characters providers refuse", () => {
    expect(mcpToolName("github", "create_issue")).toBe("github_create_issue");
    expect(mcpToolName("my server", "fs/read.file")).toBe("my_server_fs_read_file");
    expect(mcpToolName("ünï", "wörk")).toBe("_n__w_rk");
  });

  it("keeps long names within 64 characters, unique and stable", () => {
    const long = mcpToolName("server", "x".repeat(100));
    expect(long.length).toBe(MAX_TOOL_NAME);
    expect(long).toMatch(/^server_x+_[0-9a-f]{8}$/);
    expect(mcpToolName("server", "x".repeat(100))).toBe(long);
    expect(mcpToolName("server", "x".repeat(101))).not.toBe(long);
  });

  it("gives a name that collides after sanitising a distinct suffix", () => {
    const first = mcpToolName("s", "a.b");
    const second = mcpToolName("s", "a_b", new Set([first]));
    expect(first).toBe("s_a_b");
    expect(second).toMatch(/^s_a_b_[0-9a-f]{8}$/);
    for (const name of [first, second]) expect(name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
  });
});
