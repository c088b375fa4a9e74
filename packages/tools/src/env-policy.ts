// The one environment policy for the processes Lathe starts on the model's behalf: shell commands
// and MCP stdio servers. The host's credentials stay with the host: a command could otherwise
// `printenv` the provider's API key into the model's context.
import { compileWildcard } from "@lathe/permission";

/**
 * Variable names (wildcards, case-insensitive: `*` matches any text) that are never passed on by
 * default: API keys, tokens, secrets, passwords, cloud credentials, and the SSH agent's socket
 * (which signs with the user's keys).
 */
export const CREDENTIAL_ENV_NAMES: readonly string[] = Object.freeze([
  "*_API_KEY",
  "*_APIKEY",
  "*_API_TOKEN",
  "*_TOKEN",
  "*_SECRET*",
  "*SECRET_KEY*",
  "*PASSWORD*",
  "*PASSWD*",
  "*_ACCESS_KEY*",
  "*_PRIVATE_KEY*",
  "*CREDENTIAL*",
  "AWS_*",
  "GITHUB_TOKEN",
  "SSH_AUTH_SOCK",
]);

/** Options of {@link childEnvironment}. */
export interface EnvPolicyOptions {
  /**
   * Exactly the environment to give (the host's own choice, e.g. `createAgent({ shellEnv })`):
   * nothing of the host's environment is added and nothing is removed from it.
   */
  exact?: Record<string, string>;
  /** More names (wildcards, case-insensitive) to withhold, beside {@link CREDENTIAL_ENV_NAMES}. */
  withhold?: readonly string[];
  /** The environment to start from. Default `process.env`. */
  source?: NodeJS.ProcessEnv;
}

/**
 * The environment of a child process started for the model: `exact` when given, otherwise the
 * host's environment without credentials ({@link CREDENTIAL_ENV_NAMES} and `withhold`).
 */
export function childEnvironment(options: EnvPolicyOptions = {}): Record<string, string> {
  if (options.exact) return { ...options.exact };
  const withheld = credentialMatcher(options.withhold ?? []);
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(options.source ?? process.env)) {
    if (value !== undefined && !withheld(name)) env[name] = value;
  }
  return env;
}

/** True when `name` is withheld by default or by `withhold` (case-insensitive). */
export function isCredentialName(name: string, withhold: readonly string[] = []): boolean {
  return credentialMatcher(withhold)(name);
}

function credentialMatcher(withhold: readonly string[]): (name: string) => boolean {
  const matchers = [...CREDENTIAL_ENV_NAMES, ...withhold].map((pattern) => compileWildcard(pattern.toUpperCase()));
  return (name) => {
    const upper = name.toUpperCase();
    return matchers.some((m) => m.test(upper));
  };
}
