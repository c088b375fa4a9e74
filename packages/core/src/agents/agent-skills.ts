import { evaluate, type Ruleset } from "@lathe/permission";
import type { Tool } from "@lathe/tools";
import type { AgentRegistry } from "./registry.js";
import { isEnabled } from "./definition-dirs.js";
import type { Skill, SkillCatalog } from "./skill-catalog.js";
import { createSkillTool, skillsSection } from "./skill-tool.js";

/**
 * The skills each agent sees: those discovered and switched on, minus those the agent's own
 * `skills` setting leaves out and those its `skill` rules deny (the rule's pattern is the skill's name).
 */
export class AgentSkills {
  /** One tool for every agent: it looks up the calling agent's skills when called. */
  readonly tool: Tool;

  constructor(
    readonly catalog: SkillCatalog,
    private readonly agents: AgentRegistry,
    private readonly ruleset: (agent: string) => Ruleset,
  ) {
    this.tool = createSkillTool(async (agent) => this.forAgent(agent));
  }

  /** The skills `agent` may load, sorted by name. */
  forAgent(agent: string): Skill[] {
    const definition = this.agents.get(agent);
    const rules = this.ruleset(agent);
    const { skills } = this.catalog.discover();
    return skills.filter((s) => isEnabled(s.name, definition.skills) && evaluate("skill", s.name, rules).action !== "deny");
  }

  /**
   * What a turn of `agent` gets: the system prompt's skill list and the tools with the `skill` tool
   * added — or nothing added when the agent has no skills, its tools switch `skill` off, or the host
   * has a tool of that name.
   */
  forTurn(agent: string, tools: ReadonlyMap<string, Tool>): { section: string | undefined; tools: ReadonlyMap<string, Tool> } {
    if (tools.has("skill") || this.agents.get(agent).tools?.skill === false) return { section: undefined, tools };
    const skills = this.forAgent(agent);
    if (skills.length === 0) return { section: undefined, tools };
    return { section: skillsSection(skills), tools: new Map([...tools, ["skill", this.tool]]) };
  }
}
