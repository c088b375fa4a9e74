// Skill and command discovery runs at the start of every turn. Median time of one discovery of 150
// skills and 150 commands spread over three project folders, with Lathe's catalogs (each file parsed
// again only when it changes), compared with reading and parsing every file on each call (a new
// catalog each time), in the same run.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CommandCatalog, SkillCatalog } from "@lathe/core";
import { medianMs, report } from "./lib/report.ts";

const root = mkdtempSync(join(tmpdir(), "lathe-bench-skills-"));
const cwd = join(root, "repo");
mkdirSync(join(cwd, ".git"), { recursive: true });
const folders = [".lathe", ".claude", ".opencode"];
for (let i = 0; i < 150; i++) {
  const base = folders[i % 3]!;
  const skillDir = join(cwd, base, base === ".opencode" ? "skill" : "skills", `skill-${i}`);
  mkdirSync(skillDir, { recursive: true });
  writeFileSync(join(skillDir, "SKILL.md"), `---\nname: skill-${i}\ndescription: Does task number ${i} the team's way.\n---\n${"Step.\n".repeat(200)}`);
  const commandDir = join(cwd, base, base === ".opencode" ? "command" : "commands");
  mkdirSync(commandDir, { recursive: true });
  writeFileSync(join(commandDir, `command-${i}.md`), `---\ndescription: Command ${i}\nagent: build\n---\nDo $1 for $ARGUMENTS.\n`);
}

const options = { cwd, configDir: false as const };
const skills = new SkillCatalog(options);
const commands = new CommandCatalog(options);
const cached = await medianMs(async () => {
  await skills.discover();
  await commands.discover();
}, 15, 2);
const uncached = await medianMs(async () => {
  await new SkillCatalog(options).discover();
  await new CommandCatalog(options).discover();
}, 15, 2);
const found = (await skills.discover()).skills.length + (await commands.discover()).commands.length;
if (found !== 300) throw new Error(`expected 300 definitions, found ${found}`);
rmSync(root, { recursive: true, force: true });

report(import.meta.url, [
  {
    name: "discover 150 skills + 150 commands (unchanged files), per turn",
    value: cached,
    baseline: "read and parse every file each turn",
    baselineValue: uncached,
    target: "≤ 0.5×",
  },
]);
