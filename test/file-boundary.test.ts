// The file boundary, attacked as a hostile model would, through createAgent with a scripted model.
// Host rules: `read: { "*.env": "deny" }`, `edit: { "secrets/*": "deny" }`, and an approval callback
// that rejects everything. Each attack's effect is checked on disk, on a local HTTP server or unix
// socket, and in what the model was sent (tool results and the next prompt).
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createAgent, type AgentOptions, type PermissionRequest } from "@lathe/core";
import { mockModel, type MockModel } from "@lathe/mock";
import { builtinTools, type BuiltinToolsOptions } from "@lathe/tools";

const DOTENV_SECRET = "hunter2-dotenv-value";
const SECRETS_DIR_TEXT = "kept-in-secrets-dir";
const OUTSIDE_TEXT = "outside-the-workspace";

let ws: string;
let outside: string;

beforeEach(() => {
  ws = realpathSync(mkdtempSync(join(tmpdir(), "lathe-boundary-")));
  outside = realpathSync(mkdtempSync(join(tmpdir(), "lathe-outside-")));
  writeFileSync(join(ws, ".env"), `SECRET=${DOTENV_SECRET}\n`);
  writeFileSync(join(ws, "notes.txt"), "SECRET is not here\n");
  mkdirSync(join(ws, "secrets"));
  writeFileSync(join(ws, "secrets", "k"), `${SECRETS_DIR_TEXT}\n`);
  symlinkSync(join(ws, "secrets"), join(ws, "sl"));
  symlinkSync(".env", join(ws, "env-link"));
  writeFileSync(join(outside, "out.txt"), `${OUTSIDE_TEXT}\n`);
  symlinkSync(outside, join(ws, "link-out"));
  symlinkSync(join(outside, "out.txt"), join(ws, "file-out"));
  mkdirSync(join(ws, ".git", "hooks"), { recursive: true });
});
afterEach(() => {
  rmSync(ws, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

interface Attack {
  /** The permission requests the host was asked (and rejected). */
  asked: PermissionRequest[];
  /** The tool's result as the model got it (output or error). */
  result: string;
  status: string;
  /** How long the tool itself ran (from its part's times), in ms. */
  ms: number;
  model: MockModel;
  /** Everything the model was sent, as text. */
  sent: () => string;
}

/** One tool call by a hostile model, under the host rules of the issue. */
async function attack(
  tool: string,
  input: Record<string, unknown>,
  options: { tools?: BuiltinToolsOptions; agent?: Partial<AgentOptions>; approve?: AgentOptions["approve"]; before?: Array<{ name: string; input: Record<string, unknown> }> } = {},
): Promise<Attack> {
  const asked: PermissionRequest[] = [];
  const earlier = (options.before ?? []).map((call) => ({ toolCalls: [call] }));
  const model = mockModel([...earlier, { toolCalls: [{ name: tool, input }] }, { text: "done" }]);
  const agent = createAgent({
    model,
    cwd: ws,
    dataDir: join(ws, ".lathe-data"),
    snapshots: false,
    tools: builtinTools(options.tools),
    permission: { read: { "*.env": "deny" }, edit: { "secrets/*": "deny" } },
    approve:
      options.approve ??
      (async (request) => {
        asked.push(request);
        return "reject";
      }),
    ...options.agent,
  });
  const session = await agent.sessions.create();
  const { parts } = await agent.prompt(session.id, "go");
  const part = parts.filter((p) => p.type === "tool").at(-1);
  if (!part || part.type !== "tool") throw new Error("no tool part");
  const state = part.state;
  const result = state.status === "completed" ? state.output : state.status === "error" ? state.error : "";
  const time = "time" in state ? (state.time as { start: number; end?: number }) : { start: 0, end: 0 };
  return { asked, result, status: state.status, ms: (time.end ?? time.start) - time.start, model, sent: () => JSON.stringify(model.calls.map((c) => c.prompt)) };
}

const patch = (body: string) => `*** Begin Patch\n${body}\n*** End Patch`;

describe("search obeys read rules", () => {
  it("grep over the workspace never shows lines of a denied file, says how many were withheld, and the model is never sent them", async () => {
    const a = await attack("grep", { pattern: "SECRET" });
    expect(a.status).toBe("completed");
    expect(a.result).toContain("notes.txt");
    expect(a.result).not.toContain(DOTENV_SECRET);
    expect(a.result).toMatch(/1 file was not searched: reading it is denied or needs approval/);
    expect(a.result).toMatch(/read tool/);
    expect(a.sent()).not.toContain(DOTENV_SECRET);
  });

  it("grep with the denied file as path, or a symlink to it, shows nothing of it", async () => {
    for (const path of [".env", "env-link"]) {
      const a = await attack("grep", { pattern: ".", path });
      expect(a.result).not.toContain(DOTENV_SECRET);
      expect(a.result).toMatch(/No matches found[\s\S]*1 file was not searched/);
      expect(a.sent()).not.toContain(DOTENV_SECRET);
    }
  });

  it("the withheld count does not depend on the pattern (no oracle on a denied file's content)", async () => {
    const hit = await attack("grep", { pattern: "hunter2" });
    const miss = await attack("grep", { pattern: "zzz-not-anywhere" });
    expect(hit.result).toMatch(/1 file was not searched/);
    expect(miss.result).toMatch(/1 file was not searched/);
  });

  it("glob and list may show names; read of the denied file is refused", async () => {
    const glob = await attack("glob", { pattern: "**/*" });
    expect(glob.result).toContain(".env");
    const read = await attack("read", { path: ".env" });
    expect(read.status).toBe("error");
    expect(read.sent()).not.toContain(DOTENV_SECRET);
  });
});

describe("one path resolver: a path through a symlink is judged where it lands", () => {
  it("read through a symlink to a denied file is denied", async () => {
    const a = await attack("read", { path: "env-link" });
    expect(a.status).toBe("error");
    expect(a.result).toContain("*.env");
    expect(a.sent()).not.toContain(DOTENV_SECRET);
  });

  it("write, edit, multiedit through sl/ (a link to secrets/) meet the secrets/* deny rule", async () => {
    const before = readFileSync(join(ws, "secrets", "k"), "utf8");
    await attack("read", { path: "sl/k" }); // read is allowed: the guard knows the file
    for (const [tool, input] of [
      ["write", { path: "sl/k", content: "pwned" }],
      ["write", { path: "sl/new", content: "pwned" }],
      ["edit", { path: "sl/k", oldString: SECRETS_DIR_TEXT, newString: "pwned" }],
      ["multiedit", { path: "sl/k", edits: [{ oldString: SECRETS_DIR_TEXT, newString: "pwned" }] }],
    ] as const) {
      const a = await attack(tool, input);
      expect(a.status, `${tool} ${JSON.stringify(input)}`).toBe("error");
    }
    expect(readFileSync(join(ws, "secrets", "k"), "utf8")).toBe(before);
    expect(existsSync(join(ws, "secrets", "new"))).toBe(false);
  });

  it("apply_patch that adds, updates, deletes or moves through sl/ is denied, like write", async () => {
    for (const body of [
      "*** Add File: sl/added\n+pwned",
      `*** Update File: sl/k\n@@\n-${SECRETS_DIR_TEXT}\n+pwned`,
      "*** Delete File: sl/k",
      `*** Update File: notes.txt\n*** Move to: sl/moved\n@@\n-SECRET is not here\n+moved`,
    ]) {
      const a = await attack("apply_patch", { patchText: patch(body) });
      expect(a.status, body).toBe("error");
      expect(a.result, body).toContain("secrets/*");
    }
    expect(readFileSync(join(ws, "secrets", "k"), "utf8")).toBe(`${SECRETS_DIR_TEXT}\n`);
    expect(existsSync(join(ws, "secrets", "added"))).toBe(false);
    expect(existsSync(join(ws, "secrets", "moved"))).toBe(false);
    expect(existsSync(join(ws, "notes.txt"))).toBe(true);
  });

  it("every file tool asks external_directory for a symlink that leads out, and nothing outside is touched", async () => {
    const cases: Array<[string, Record<string, unknown>]> = [
      ["read", { path: "file-out" }],
      ["read", { path: "link-out/out.txt" }],
      ["write", { path: "link-out/new.txt", content: "x" }],
      ["edit", { path: "file-out", oldString: OUTSIDE_TEXT, newString: "x" }],
      ["apply_patch", { patchText: patch("*** Add File: link-out/patched.txt\n+x") }],
      ["apply_patch", { patchText: patch(`*** Update File: file-out\n@@\n-${OUTSIDE_TEXT}\n+x`) }],
      ["list", { path: "link-out" }],
      ["glob", { pattern: "*", path: "link-out" }],
      ["grep", { pattern: "outside", path: "link-out" }],
      ["bash", { command: "cat out.txt", workdir: "link-out" }],
    ];
    for (const [tool, input] of cases) {
      const a = await attack(tool, input);
      expect(a.asked.map((r) => r.permission), `${tool} ${JSON.stringify(input)}`).toEqual(["external_directory"]);
      expect(a.asked[0]!.patterns).toEqual([`${outside}/*`]);
      expect(a.status).toBe("error");
      expect(a.sent()).not.toContain(OUTSIDE_TEXT);
    }
    expect(readFileSync(join(outside, "out.txt"), "utf8")).toBe(`${OUTSIDE_TEXT}\n`);
    expect(existsSync(join(outside, "new.txt"))).toBe(false);
    expect(existsSync(join(outside, "patched.txt"))).toBe(false);
  });

  it("a symlink swapped in between the check and the write does not lead the write outside", async () => {
    mkdirSync(join(ws, "dir"));
    writeFileSync(join(ws, "dir", "target.txt"), "before\n");
    // The host approves the edit, but while it was asked, dir/ became a link to the outside folder.
    const a = await attack(
      "edit",
      { path: "dir/target.txt", oldString: "before", newString: "after" },
      {
        agent: { permission: { edit: "ask" } },
        before: [{ name: "read", input: { path: "dir/target.txt" } }],
        approve: async () => {
          rmSync(join(ws, "dir"), { recursive: true });
          symlinkSync(outside, join(ws, "dir"));
          writeFileSync(join(outside, "target.txt"), "before\n");
          return "once";
        },
      },
    );
    expect(a.status).toBe("error");
    expect(a.result).toMatch(/symbolic link/);
    expect(readFileSync(join(outside, "target.txt"), "utf8")).toBe("before\n");
  });
});

describe("sensitive places", () => {
  it("writing a git hook asks by default (the host rejects), so git commit cannot run it", async () => {
    const hook = join(ws, ".git", "hooks", "pre-commit");
    const a = await attack("write", { path: ".git/hooks/pre-commit", content: "#!/bin/sh\ntouch pwned\n" });
    expect(a.asked.map((r) => [r.permission, r.patterns])).toEqual([["edit", [".git/hooks/pre-commit"]]]);
    expect(existsSync(hook)).toBe(false);
    const viaPatch = await attack("apply_patch", { patchText: patch("*** Add File: .git/config\n+[core]\n+\thooksPath = evil") });
    expect(viaPatch.asked.map((r) => r.permission)).toEqual(["edit"]);
    expect(existsSync(join(ws, ".git", "config"))).toBe(false);
  });
});

describe("bad input is answered in milliseconds", () => {
  // Every tool, called directly, is covered in packages/tools (path-resolution.test.ts); here, through the loop.
  it.each(["read"])("%s: a path of 1 MB or 100,000 components, a symlink loop, NUL, invalid UTF-8", async (tool) => {
    symlinkSync("loop-b", join(ws, "loop-a"));
    symlinkSync("loop-a", join(ws, "loop-b"));
    const extra = tool === "write" ? { content: "x" } : tool === "grep" ? { pattern: "x" } : {};
    for (const [path, message] of [
      ["x".repeat(1024 * 1024), /longer than/],
      ["a/".repeat(100_000) + "f", /longer than/],
      ["loop-a/x", /loop/],
      ["a\0b", /NUL/],
      ["bad-\ud800-name", /not valid Unicode/],
    ] as const) {
      const a = await attack(tool, { path, ...extra });
      expect(a.status).toBe("error");
      expect(a.result).toMatch(message);
      // The tool's own time, which here includes storing a 1 MB tool input with its part; the
      // resolver alone is held to a tighter bound in packages/tools (path-resolution.test.ts).
      expect(a.ms).toBeLessThan(2000);
    }
  }, 120_000);
});

describe("secrets stay with the host", () => {
  const KEY = "sk-lathe-test-provider-key";
  beforeAll(() => {
    process.env.LATHE_BOUNDARY_API_KEY = KEY;
    process.env.LATHE_BOUNDARY_PASSWORD = KEY;
    process.env.LATHE_BOUNDARY_PLAIN = "plain-value";
  });
  afterAll(() => {
    delete process.env.LATHE_BOUNDARY_API_KEY;
    delete process.env.LATHE_BOUNDARY_PASSWORD;
    delete process.env.LATHE_BOUNDARY_PLAIN;
  });

  it("printenv in bash shows the host's environment without credentials", async () => {
    const a = await attack("bash", { command: "printenv" });
    expect(a.result).toContain("LATHE_BOUNDARY_PLAIN=plain-value");
    expect(a.result).not.toContain(KEY);
    expect(a.sent()).not.toContain(KEY);
  });

  it("shellEnv passes exactly what the host wants", async () => {
    const a = await attack("bash", { command: "printenv" }, { agent: { shellEnv: { ONLY_THIS: "yes", PATH: process.env.PATH ?? "/usr/bin:/bin" } } });
    expect(a.result).toContain("ONLY_THIS=yes");
    expect(a.result).not.toContain("LATHE_BOUNDARY_PLAIN");
    expect(a.result).not.toContain(KEY);
  });
});

describe("network", () => {
  let server: Server;
  let port: number;
  let hits = 0;
  beforeAll(async () => {
    server = createServer((_req, res) => {
      hits++;
      res.end("local server");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as { port: number }).port;
  });
  afterAll(() => server.close());

  it("a deny rule for http://127.0.0.1* also stops [::ffff:127.0.0.1], decimal and hex spellings", async () => {
    for (const host of ["[::ffff:127.0.0.1]", "2130706433", "0x7f.0.0.1", "127.0.0.1."]) {
      const before = hits;
      const a = await attack(
        "webfetch",
        { url: `http://${host}:${port}/` },
        { tools: { webfetch: { allowPrivateAddresses: true } }, agent: { permission: { webfetch: { "*": "allow", "http://127.0.0.1*": "deny" } } } },
      );
      expect(a.status, host).toBe("error");
      expect(hits).toBe(before);
    }
  });

  it("by default loopback and metadata addresses are refused even where rules allow; the host can allow them", async () => {
    const before = hits;
    for (const url of [`http://127.0.0.1:${port}/`, `http://localhost:${port}/`, "http://169.254.169.254/latest/meta-data/"]) {
      const a = await attack("webfetch", { url });
      expect(a.status).toBe("error");
      expect(a.result).toMatch(/Refused to fetch/);
    }
    expect(hits).toBe(before);
    const allowed = await attack("webfetch", { url: `http://127.0.0.1:${port}/` }, { tools: { webfetch: { allowPrivateAddresses: ["127.0.0.1"] } } });
    expect(allowed.result).toContain("local server");
    expect(hits).toBe(before + 1);
  });
});
