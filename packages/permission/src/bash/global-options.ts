import { type OptionSpec, scanOptions } from "./option-scan.js";

/**
 * Options that tools take before their subcommand (`git -C dir --no-pager push`): set aside so rules
 * written for the subcommand (`git push *`) see every spelling of it. Keys are the tool, or the tool
 * and its subcommand for nested command lines (`docker compose`).
 */
const GLOBAL_OPTIONS: ReadonlyMap<string, OptionSpec> = new Map<string, OptionSpec>([
  ["git", {
    valued: ["-c", "--namespace", "--super-prefix", "--config-env", "--exec-path", "--list-cmds", "--attr-source"],
    directories: ["-C", "--git-dir", "--work-tree"],
  }],
  ["docker", { valued: ["-c", "--context", "--config", "-H", "--host", "-l", "--log-level", "--tlscacert", "--tlscert", "--tlskey"] }],
  ["podman", { valued: ["-c", "--connection", "--url", "--identity", "--root", "--runroot", "--log-level", "--storage-driver", "--cgroup-manager"] }],
  ["docker compose", {
    valued: ["-f", "--file", "-p", "--project-name", "--profile", "--env-file", "--ansi", "--parallel", "--progress"],
    directories: ["--project-directory"],
  }],
  ["docker-compose", {
    valued: ["-f", "--file", "-p", "--project-name", "--profile", "--env-file", "--ansi", "--parallel", "--progress", "-H", "--host", "--context", "-c"],
    directories: ["--project-directory"],
  }],
  ["kubectl", {
    valued: ["--context", "-n", "--namespace", "--kubeconfig", "--cluster", "--user", "-s", "--server", "--token", "--as", "--as-group", "--as-uid", "--request-timeout", "--cache-dir", "--certificate-authority", "--client-certificate", "--client-key", "-v", "--v", "--vmodule", "--tls-server-name", "--password", "--username", "--profile", "--profile-output", "--log-file"],
  }],
  ["helm", { valued: ["--kube-context", "-n", "--namespace", "--kubeconfig", "--kube-apiserver", "--kube-as-user", "--kube-as-group", "--kube-token", "--kube-ca-file", "--registry-config", "--repository-cache", "--repository-config", "--burst-limit", "--qps"] }],
  ["npm", { valued: ["-w", "--workspace", "--userconfig", "--globalconfig", "--registry", "--cache", "--loglevel", "--scope"], directories: ["--prefix", "-C"] }],
  ["pnpm", { valued: ["-F", "--filter", "--loglevel", "--reporter", "--workspace-concurrency"], directories: ["-C", "--dir"] }],
  ["yarn", { valued: ["--cache-folder", "--mutex", "--network-timeout", "--registry"], directories: ["--cwd"] }],
  ["bun", { valued: ["--config", "-c", "--filter"], directories: ["--cwd"] }],
  ["cargo", { valued: ["--config", "-Z", "--color"], directories: ["-C", "--manifest-path"] }],
  ["terraform", { singleDashLong: true, directories: ["-chdir"] }],
  ["make", { valued: ["-f", "--file", "--makefile", "-j", "--jobs", "-l", "--load-average", "-o", "-W", "-I", "--include-dir"], directories: ["-C", "--directory"] }],
  ["systemctl", { valued: ["-H", "--host", "-M", "--machine", "-t", "--type", "-p", "--property", "-n", "--lines", "-o", "--output", "--state", "--root", "-s", "--signal", "--kill-whom"] }],
  ["journalctl", { valued: ["-u", "--unit", "-n", "--lines", "-o", "--output", "-p", "--priority", "-S", "--since", "-U", "--until", "-D", "--directory", "-M", "--machine"] }],
  ["gh", { valued: ["-R", "--repo", "--hostname"] }],
  ["aws", { valued: ["--profile", "--region", "--output", "--endpoint-url", "--query", "--cli-read-timeout", "--cli-connect-timeout", "--ca-bundle", "--color"] }],
  ["gcloud", { valued: ["--project", "--account", "--configuration", "--format", "--verbosity", "--impersonate-service-account", "--billing-project", "--flags-file", "--trace-token"] }],
  ["az", { valued: ["--subscription", "--output", "-o", "--query"] }],
  ["consul", { singleDashLong: true, valued: ["-http-addr", "-token", "-token-file", "-datacenter", "-ca-file", "-namespace"] }],
  ["vault", { singleDashLong: true, valued: ["-address", "-namespace", "-ca-cert", "-format"] }],
  ["go", { valued: [] }],
  ["uv", { valued: ["--cache-dir", "--config-file", "--python", "-p", "--color"], directories: ["--directory", "--project"] }],
  ["poetry", { valued: [], directories: ["-C", "--directory", "-P", "--project"] }],
  ["brew", { valued: [] }],
  ["apt", { valued: ["-o", "--option", "-c", "--config-file", "-t", "--target-release"] }],
  ["apt-get", { valued: ["-o", "--option", "-c", "--config-file", "-t", "--target-release"] }],
]);

/** A command with its global options set aside. */
export interface SetAside {
  /** The words without the global options: `git -C x --no-pager push` → `git push`. */
  words: string[];
  /** Directories the options point the tool at (`git -C dir`, `make -C dir`, `terraform -chdir=dir`). */
  directories: string[];
}

/**
 * `words` (name first; all known values) with the global options of the tool set aside, at the tool
 * and at a nested command (`docker --context x compose -f y down` → `docker compose down`).
 * Undefined when nothing was set aside. `cargo +nightly build` loses its toolchain selector too.
 */
export function setAsideGlobalOptions(words: readonly string[]): SetAside | undefined {
  const [name, ...rest] = words;
  if (name === undefined) return undefined;
  let head = [name];
  let tail = rest;
  const directories: string[] = [];
  let changed = false;
  if (name === "cargo" && tail[0]?.startsWith("+")) {
    tail = tail.slice(1);
    changed = true;
  }
  for (let depth = 0; depth < 2; depth++) {
    const spec = GLOBAL_OPTIONS.get(head.join(" "));
    if (!spec) break;
    const scan = scanOptions(tail, spec);
    if (scan.operands > 0 && !scan.unknown) {
      changed = true;
      directories.push(...scan.directories);
      tail = tail.slice(scan.operands);
    }
    if (tail.length === 0) break;
    head = [...head, tail[0]!];
    tail = tail.slice(1);
  }
  return changed ? { words: [...head, ...tail], directories } : undefined;
}
