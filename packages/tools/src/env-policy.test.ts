import { describe, expect, it } from "vitest";
import { tempWorkspace, testContext } from "./test-context.js";
import { createBashTool } from "./bash/bash.js";
import { childEnvironment, isCredentialName } from "./env-policy.js";

describe("the environment policy", () => {
  const host = {
    PATH: "/usr/bin",
    HOME: "/home/u",
    OPENAI_API_KEY: "k1",
    anthropic_api_key: "k2",
    GITHUB_TOKEN: "t",
    NPM_TOKEN: "t2",
    CLIENT_SECRET_VALUE: "s",
    DB_PASSWORD: "p",
    AWS_REGION: "eu-west-1",
    SSH_AUTH_SOCK: "/tmp/agent",
    GOOGLE_APPLICATION_CREDENTIALS: "/key.json",
    MY_PRIVATE_THING: "x",
    TOKENIZER_PATH: "/models",
    LANG: "C.UTF-8",
  };

  it("keeps the host's environment without credentials, by name and case-insensitively", () => {
    expect(childEnvironment({ source: host })).toEqual({ PATH: "/usr/bin", HOME: "/home/u", MY_PRIVATE_THING: "x", TOKENIZER_PATH: "/models", LANG: "C.UTF-8" });
  });

  it("withholds the names the host adds, and gives exactly shellEnv when set", () => {
    expect(childEnvironment({ source: host, withhold: ["MY_*"] })).not.toHaveProperty("MY_PRIVATE_THING");
    expect(childEnvironment({ source: host, exact: { ONLY: "1" } })).toEqual({ ONLY: "1" });
    expect(isCredentialName("Some_Api_Key")).toBe(true);
    expect(isCredentialName("KEYBOARD")).toBe(false);
  });

  it("bash: withholdEnv and the defaults apply to every command", async () => {
    const ws = await tempWorkspace();
    process.env.LATHE_ENV_TEST_TOKEN = "secret-token";
    process.env.LATHE_ENV_TEST_CUSTOM = "custom";
    process.env.LATHE_ENV_TEST_PLAIN = "plain";
    try {
      const tool = createBashTool({ withholdEnv: ["LATHE_ENV_TEST_CUSTOM"], env: { ADDED: "yes" } });
      const { output } = await tool.execute({ command: "printenv" }, testContext(ws.dir));
      expect(output).toContain("LATHE_ENV_TEST_PLAIN=plain");
      expect(output).toContain("ADDED=yes");
      expect(output).not.toContain("secret-token");
      expect(output).not.toContain("LATHE_ENV_TEST_CUSTOM");
      const exact = await tool.execute({ command: "printenv" }, { ...testContext(ws.dir), shellEnv: { PATH: process.env.PATH ?? "/usr/bin:/bin", ONLY: "1" } });
      expect(exact.output).toContain("ONLY=1");
      expect(exact.output).not.toContain("LATHE_ENV_TEST_PLAIN");
      expect(exact.output).not.toContain("ADDED");
    } finally {
      delete process.env.LATHE_ENV_TEST_TOKEN;
      delete process.env.LATHE_ENV_TEST_CUSTOM;
      delete process.env.LATHE_ENV_TEST_PLAIN;
      await ws.cleanup();
    }
  });
});
