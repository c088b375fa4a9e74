import { describe, expect, it } from "vitest";
import { fromConfig } from "../config.js";
import { DeniedError } from "../errors.js";
import { PermissionService } from "../service.js";
import { analyzeCommand } from "./analyze.js";
import { bashAsks } from "./asks.js";

const options = { cwd: "/home/u/ws", home: "/home/u" };

describe("bashAsks", () => {
  it("asks external_directory first, then bash with the always prefixes", async () => {
    expect(bashAsks(await analyzeCommand("ls && rm -rf ~", options))).toEqual([
      { permission: "external_directory", patterns: ["/home/u/*"], always: ["/home/u/*"] },
      { permission: "bash", patterns: ["ls", "rm -rf /home/u"], variants: [[], ["rm -rf ~"]], always: ["ls *", "rm *"] },
    ]);
    expect(bashAsks(await analyzeCommand("rm -rf /", options))[0]).toMatchObject({ patterns: ["/*"] });
  });

  it("asks an opaque command as a whole, with no always patterns", async () => {
    expect(bashAsks(await analyzeCommand("PATH=/tmp npm test", options))).toEqual([
      { permission: "bash", patterns: ["npm test"], variants: [["PATH=/tmp npm test"]], always: [], opaque: true },
    ]);
  });

  it("asks nothing for an empty command", async () => {
    expect(bashAsks(await analyzeCommand("  ", options))).toEqual([]);
  });
});

describe("bash commands through the service", () => {
  async function run(command: string, config: Parameters<typeof fromConfig>[0]) {
    const asked: string[][] = [];
    const service = new PermissionService({ approve: (r) => (asked.push([r.permission, ...r.patterns]), "once") });
    const ruleset = fromConfig(config);
    for (const spec of bashAsks(await analyzeCommand(command, options))) {
      await service.ask({ ...spec, sessionID: "s", ruleset });
    }
    return asked;
  }

  it("an allow rule for `ls *` does not approve `ls && rm -rf ~`", async () => {
    const config = { bash: { "*": "ask", "ls *": "allow" }, external_directory: "allow" } as const;
    expect(await run("ls && rm -rf ~", config)).toEqual([["bash", "rm -rf /home/u"]]);
    expect(await run("ls -la", config)).toEqual([]);
  });

  it("opaque commands are asked even where allow rules match; deny rules still apply", async () => {
    const config = { "*": "allow", bash: { "*": "allow", "rm *": "deny" } } as const;
    expect(await run("ls | xargs cat", config)).toEqual([["bash", "ls", "xargs cat", "cat"]]);
    await expect(run("sudo rm -rf build", config)).rejects.toBeInstanceOf(DeniedError);
    await expect(run('bash -c "ls; rm -rf build"', config)).rejects.toBeInstanceOf(DeniedError);
  });

  it("a rule on a wrapper sees what it runs in canonical form", async () => {
    const config = { "*": "allow", bash: { "*": "allow", "sudo rm *": "deny", "timeout * rm *": "deny" } } as const;
    await expect(run("sudo /bin/rm x", config)).rejects.toBeInstanceOf(DeniedError);
    await expect(run("sudo 'rm' x", config)).rejects.toBeInstanceOf(DeniedError);
    await expect(run("timeout 5 /usr/bin/rm x", config)).rejects.toBeInstanceOf(DeniedError);
    expect(await run("sudo ls", config)).toEqual([]);
  });

  it("an ask a spelling's rule made is not settled by another request's always", async () => {
    const ruleset = fromConfig({ bash: { "*": "ask", "rm *": "allow", "/usr/bin/*": "ask" } });
    const service = new PermissionService();
    const bash = async (command: string) => bashAsks(await analyzeCommand(command, options)).find((a) => a.permission === "bash")!;
    // Plain `rm x` is allowed; `/usr/bin/rm x` is `rm x` too, but the host asks for that spelling.
    await service.ask({ ...(await bash("rm x")), sessionID: "s", ruleset });
    const pinned = service.ask({ ...(await bash("/usr/bin/rm x")), sessionID: "s", ruleset });
    const sudo = await bash("sudo rm x");
    expect(sudo).toMatchObject({ patterns: ["sudo rm x", "rm x"], always: ["rm *"] });
    const other = service.ask({ ...sudo, sessionID: "s", ruleset });
    const [first, second] = service.pending("s");
    expect(first!.patterns).toEqual(["rm x"]);
    await service.reply(second!.id, "always"); // approves `rm *`, which covers `rm x`…
    await other;
    expect(service.approved("s").map((r) => r.pattern)).toEqual(["rm *"]);
    expect(service.pending("s").map((r) => r.id)).toEqual([first!.id]); // …but the spelling's ask still waits
    await service.reply(first!.id, "once");
    await pinned;
  });

  it("paths outside the workspace ask external_directory", async () => {
    const config = { "*": "allow", external_directory: "ask" } as const;
    expect(await run("cp a.txt /etc/", config)).toEqual([["external_directory", "/etc/*"]]);
    expect(await run("cp a.txt b.txt", config)).toEqual([]);
  });
});

describe("env prefixes do not hide a command from deny rules", () => {
  it("FOO=1 rm x is denied by a deny rule for rm *", async () => {
    const { PermissionService } = await import("../service.js");
    const { DeniedError } = await import("../errors.js");
    const service = new PermissionService({ approve: async () => "once" as const });
    const ruleset = fromConfig({ bash: { "*": "allow", "rm *": "deny" } });
    const [ask] = bashAsks(await analyzeCommand("FOO=1 rm x", options));
    await expect(service.ask({ sessionID: "s", ruleset, ...ask! })).rejects.toBeInstanceOf(DeniedError);
  });
});
