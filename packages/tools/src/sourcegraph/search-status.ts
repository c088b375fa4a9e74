// What a Sourcegraph search says about itself besides its matches: progress (counts and what was
// skipped), alerts and filter suggestions. Kept so the model learns whether the answer is whole.

interface Skipped {
  reason?: string;
  title?: string;
  message?: string;
  severity?: string;
  suggested?: { title?: string; queryExpression?: string };
}

interface Progress {
  done?: boolean;
  matchCount?: number;
  repositoriesCount?: number;
  skipped?: Skipped[];
}

interface Alert {
  title?: string;
  description?: string | null;
  proposedQueries?: Array<{ description?: string | null; query?: string }> | null;
}

interface Filter {
  value?: string;
  label?: string;
  count?: number;
  kind?: string;
}

// Skips that leave matches out. The others (forks and archives excluded by default) narrow the
// search on purpose; they are still listed, but the search counts as complete.
const DELIBERATE_SKIPS = new Set(["excluded-fork", "excluded-archive"]);
const MAX_FILTERS = 10;

/** Collects the progress, alert and filters events of one search. */
export class SearchStatus {
  private progress: Progress | undefined;
  private readonly alerts: string[] = [];
  private filters: Filter[] = [];

  /** Takes one non-match event; false when `event` is not one of these. */
  take(event: string, data: unknown): boolean {
    if (typeof data !== "object" || data === null) return event === "progress" || event === "alert" || event === "filters";
    if (event === "progress") this.progress = data as Progress; // Each progress event replaces the last.
    else if (event === "filters" && Array.isArray(data)) this.filters = data as Filter[];
    else if (event === "alert") this.alerts.push(alertText(data as Alert));
    else return event === "filters";
    return true;
  }

  /** Matches Sourcegraph counted (a lower bound when something was skipped). */
  get matchCount(): number {
    return Number(this.progress?.matchCount) || 0;
  }

  /** Skips that left matches out. */
  get missing(): Skipped[] {
    return (this.progress?.skipped ?? []).filter((skip) => !DELIBERATE_SKIPS.has(skip.reason ?? ""));
  }

  /** Sourcegraph's own last word was that it had not finished. */
  get unfinished(): boolean {
    return this.progress?.done === false;
  }

  /** Lines for the model: alerts, what was skipped, filters to narrow with. */
  lines(): string[] {
    const out = this.alerts.map((alert) => `Alert: ${alert}`);
    for (const skip of this.progress?.skipped ?? []) {
      const kind = DELIBERATE_SKIPS.has(skip.reason ?? "") ? "Skipped" : "Incomplete";
      const text = [skip.title, skip.message && skip.message !== skip.title ? skip.message : ""].filter(Boolean).join(": ") || skip.reason || "some results were skipped";
      const hint = skip.suggested?.queryExpression ? ` (add \`${skip.suggested.queryExpression}\` to the query to include them)` : "";
      out.push(`${kind}: ${text}${hint}`);
    }
    const filters = this.filters.filter((f) => typeof f.value === "string").slice(0, MAX_FILTERS);
    if (filters.length) out.push(`Narrow with: ${filters.map((f) => `${f.value}${typeof f.count === "number" ? ` (${f.count})` : ""}`).join(", ")}`);
    return out;
  }
}

function alertText(alert: Alert): string {
  const head = [alert.title, alert.description].filter(Boolean).join(": ");
  const proposed = (alert.proposedQueries ?? []).filter((q) => q.query).map((q) => `\`${q.query}\`${q.description ? ` (${q.description})` : ""}`);
  return proposed.length ? `${head} Try: ${proposed.join(", ")}` : head;
}
