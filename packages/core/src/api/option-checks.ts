import { homedir } from "node:os";
import { join } from "node:path";
import { Limits } from "@lathe/message";
import { InvalidInputError } from "../errors.js";
import { ModelFacts, ModelPrice } from "../context/model-facts.js";
import { CacheSetting } from "../context/cache-options.js";
import type { AgentOptions, WhileBusy } from "../options.js";
import { parseMode } from "../agents/permission-mode.js";
import { WorkspaceTrustSchema } from "../agents/workspace-trust.js";

// The checks `createAgent`, `prompt` and `sessions.create` make on what the host passes, before
// anything runs, so a typo fails where it was made rather than mid-session.

/** Checks the option groups that have schemas, so a typo fails at creation rather than mid-session. */
export function validateOptions(options: AgentOptions): void {
  if (options.whileBusy !== undefined) parseWhileBusy(options.whileBusy, "whileBusy");
  if (options.limits !== undefined) parseLimits(options.limits, "limits");
  if (options.mode !== undefined) parseMode(options.mode, "mode");
  if (options.trust !== undefined && !WorkspaceTrustSchema.safeParse(options.trust).success) {
    throw new InvalidInputError(`trust must be "untrusted" or "trusted", got ${JSON.stringify(options.trust)}.`);
  }
  if (options.fileUrls !== undefined && typeof options.fileUrls !== "boolean") throw new InvalidInputError(`fileUrls must be a boolean, got ${JSON.stringify(options.fileUrls)}.`);
  for (const [key, facts] of Object.entries(options.models ?? {})) {
    const parsed = ModelFacts.strict().safeParse(facts);
    if (!parsed.success) throw new InvalidInputError(`models["${key}"] is invalid: ${parsed.error.issues.map(issueText).join("; ")}`);
  }
  for (const [key, price] of Object.entries(options.prices ?? {})) {
    const parsed = ModelPrice.safeParse(price);
    if (!parsed.success) throw new InvalidInputError(`prices["${key}"] is invalid: ${parsed.error.issues.map(issueText).join("; ")}`);
  }
  if (options.cache !== undefined) parseCache(options.cache, "cache");
  for (const [name, agent] of Object.entries(options.agents ?? {})) if (agent.cache !== undefined) parseCache(agent.cache, `agents["${name}"].cache`);
  checkSwitches(options.retry, "retry", { maxRetries: "number", maxDelayMs: "number" });
  checkSwitches(options.compaction, "compaction", { auto: "boolean", prune: "boolean" });
  const retries = options.retry?.maxRetries;
  if (retries !== undefined && (!Number.isInteger(retries) || retries < 0)) {
    throw new InvalidInputError(`retry.maxRetries must be a whole number ≥ 0, got ${retries}.`);
  }
  const maxDelay = options.retry?.maxDelayMs;
  if (maxDelay !== undefined && !(maxDelay >= 0)) throw new InvalidInputError(`retry.maxDelayMs must be ≥ 0, got ${maxDelay}.`);
}

/**
 * Checks a small option group: an object of known keys whose values have the given types. A typo
 * (`maxRetry`) or a wrong type (`auto: "no"`) would otherwise be ignored and the default silently used.
 */
function checkSwitches(group: unknown, name: string, keys: Record<string, "number" | "boolean">): void {
  if (group === undefined) return;
  if (typeof group !== "object" || group === null || Array.isArray(group)) throw new InvalidInputError(`${name} must be an object, got ${JSON.stringify(group)}.`);
  for (const [key, value] of Object.entries(group)) {
    const type = keys[key];
    if (type === undefined) throw new InvalidInputError(`${name}.${key} is not an option; known: ${Object.keys(keys).join(", ")}.`);
    if (value !== undefined && typeof value !== type) throw new InvalidInputError(`${name}.${key} must be a ${type}, got ${JSON.stringify(value)}.`);
  }
}

/** Checks a cache setting (`true`, `false`, `"1h"` or its options) where `what` names it. */
/** Checks a `whileBusy` setting; returns it. */
export function parseWhileBusy(value: unknown, what: string): WhileBusy {
  if (value === "reject" || value === "steer" || value === "queue") return value;
  throw new InvalidInputError(`${what} must be "reject", "steer" or "queue", got ${JSON.stringify(value)}.`);
}

export function parseCache(cache: unknown, what: string): void {
  const parsed = CacheSetting.safeParse(cache);
  if (!parsed.success) throw new InvalidInputError(`${what} is invalid: expected true, false, "1h" or { enabled, ttl: "5m" | "1h", scheme: "breakpoints" | "key" | "prefix" }, got ${JSON.stringify(cache)}.`);
}

export function parseLimits(limits: unknown, what: string): void {
  const parsed = Limits.strict().safeParse(limits);
  if (!parsed.success) throw new InvalidInputError(`The ${what} are invalid: ${parsed.error.issues.map(issueText).join("; ")}`);
}

function issueText(issue: { path: PropertyKey[]; message: string }): string {
  return issue.path.length > 0 ? `${issue.path.map(String).join(".")}: ${issue.message}` : issue.message;
}

export function defaultDataDir(): string {
  const base = process.env.XDG_DATA_HOME || join(homedir(), ".local", "share");
  return join(base, "lathe");
}
