import { totalTokens, type Limits, type Session } from "@lathe/message";

/** Which limit was reached, where it was set, and how far usage had come. */
export interface BudgetHit {
  limit: keyof Limits;
  /** Where the limit was set: on the prompt, the session, or the agent (the default of every session). */
  scope: "prompt" | "session" | "agent";
  /** The session whose limit it was (a parent's, when a subagent's work reached it). */
  sessionID: string;
  max: number;
  used: number;
}

/** Usage a budget counts. */
export interface BudgetUsage {
  steps: number;
  tokens: number;
  cost: number;
}

interface Scope {
  scope: BudgetHit["scope"];
  limits: Limits;
  used: BudgetUsage;
}

const ORDER: ReadonlyArray<[keyof Limits, keyof BudgetUsage]> = [
  ["maxCostUsd", "cost"],
  ["maxTokens", "tokens"],
  ["maxSteps", "steps"],
];

/**
 * The budgets one turn runs under: the prompt's own (counted from zero), and the session's (its
 * totals so far, limits from the session over the agent's). A subagent's turn is chained to its
 * parent's, so what the child spends counts toward the parent's limits too, and a limit reached
 * anywhere in the chain stops every turn above it.
 */
export class BudgetTracker {
  private readonly scopes: Scope[] = [];
  /** A limit a turn below this one reached; this turn stops at its next chance. */
  private stoppedBy: BudgetHit | undefined;

  constructor(
    private readonly sessionID: string,
    input: { prompt?: Limits | undefined; session: Session; agent?: Limits | undefined },
    private readonly parent?: BudgetTracker,
  ) {
    if (input.prompt && hasLimit(input.prompt)) this.scopes.push({ scope: "prompt", limits: input.prompt, used: { steps: 0, tokens: 0, cost: 0 } });
    const usage = input.session.usage;
    const sessionUsed = { steps: usage.steps ?? 0, tokens: totalTokens(usage.tokens), cost: usage.cost };
    for (const [scope, limits] of [["session", input.session.limits], ["agent", input.agent]] as const) {
      // The agent's limits apply where the session sets none of its own for that figure.
      const own = limits && scope === "agent" ? withoutKeys(limits, input.session.limits) : limits;
      if (own && hasLimit(own)) this.scopes.push({ scope, limits: own, used: { ...sessionUsed } });
    }
  }

  /** Counts usage here and in every turn above. */
  add(usage: Partial<BudgetUsage>): void {
    for (const scope of this.scopes) {
      scope.used.steps += usage.steps ?? 0;
      scope.used.tokens += usage.tokens ?? 0;
      scope.used.cost += usage.cost ?? 0;
    }
    this.parent?.add(usage);
  }

  /** The first limit reached (here, or by a turn below, or in a turn above), if any. */
  reached(): BudgetHit | undefined {
    if (this.stoppedBy) return this.stoppedBy;
    for (const { scope, limits, used } of this.scopes) {
      for (const [limit, figure] of ORDER) {
        const max = limits[limit];
        if (max !== undefined && used[figure] >= max) return { limit, scope, sessionID: this.sessionID, max, used: used[figure] };
      }
    }
    return this.parent?.reached();
  }

  /** Records that this turn stops for `hit`, so the turns above it stop too. */
  stop(hit: BudgetHit): void {
    for (let tracker: BudgetTracker | undefined = this.parent; tracker; tracker = tracker.parent) tracker.stoppedBy ??= hit;
  }
}

function hasLimit(limits: Limits): boolean {
  return limits.maxSteps !== undefined || limits.maxTokens !== undefined || limits.maxCostUsd !== undefined;
}

function withoutKeys(limits: Limits, over: Limits | undefined): Limits {
  if (!over) return limits;
  const out: Limits = { ...limits };
  for (const key of Object.keys(over) as Array<keyof Limits>) if (over[key] !== undefined) delete out[key];
  return out;
}

/** The message a budget stop records; `outcome` says what the hit stopped. */
export function budgetMessage(hit: BudgetHit, outcome = "the turn stopped"): string {
  const figure =
    hit.limit === "maxCostUsd" ? `$${hit.used.toFixed(4)} of $${hit.max}` : hit.limit === "maxTokens" ? `${hit.used} of ${hit.max} tokens` : `${hit.used} of ${hit.max} steps`;
  return `The ${hit.scope} budget was reached (${hit.limit}: ${figure}); ${outcome}.`;
}
