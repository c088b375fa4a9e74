import { lstatSync, readdirSync } from "node:fs";
import path from "node:path";
import { matchWildcard } from "@lathe/permission";
import type { ToolContext } from "../tool.js";

/** Entries looked at, at most, while finding the files a pattern denies (a bound on a huge tree). */
export const MAX_ENFORCEMENT_WALK = 20_000;

/**
 * The bubblewrap mounts that enforce the path rules in the kernel, so that a command the analyser
 * misjudged still cannot read what `read` denies nor change what `edit` denies:
 * - a pattern naming everything under a folder (`secrets/*`, `secrets/**`): the folder is mounted
 *   read-only (`edit`) or replaced by an empty one (`read`) — files created later are covered too;
 * - any other pattern (`*.env`): each existing file it matches (and the rules deny, after any
 *   later allow) is mounted read-only (`edit`) or covered by an empty file (`read`); the walk stops
 *   after {@link MAX_ENFORCEMENT_WALK} entries.
 * Edit mounts come first, so a folder both denied is hidden rather than shown read-only.
 */
export function enforcementMounts(ctx: Pick<ToolContext, "check" | "deniedPatterns">, workspace: string): string[] {
  if (!ctx.deniedPatterns) return [];
  const mounts: string[] = [];
  for (const permission of ["edit", "read"] as const) {
    const seen = new Set<string>();
    for (const pattern of ctx.deniedPatterns(permission)) {
      for (const target of deniedTargets(ctx, permission, pattern, workspace)) {
        if (seen.has(target.path)) continue;
        seen.add(target.path);
        if (permission === "edit") mounts.push("--ro-bind", target.path, target.path);
        else if (target.directory) mounts.push("--tmpfs", target.path, "--remount-ro", target.path);
        else mounts.push("--ro-bind", "/dev/null", target.path);
      }
    }
  }
  return mounts;
}

interface Target {
  path: string;
  directory: boolean;
}

/** The existing paths `pattern` denies, or its folder when it denies everything under one. */
function deniedTargets(ctx: Pick<ToolContext, "check">, permission: string, pattern: string, workspace: string): Target[] {
  const absolute = path.isAbsolute(pattern);
  const full = absolute ? pattern : `${workspace}/${pattern}`;
  const wild = full.search(/[*?\\]/);
  const literal = wild < 0 ? full : full.slice(0, wild);
  const folder = wild < 0 ? full : literal.slice(0, literal.lastIndexOf("/")) || "/";
  const everything = wild >= 0 && /^\/\*\*?$/.test(full.slice(folder.length)) && folder.length > 1;
  const stat = statOf(folder);
  if (!stat) return [];
  if (everything && stat.isDirectory()) return [{ path: folder, directory: true }];
  if (wild < 0) return [{ path: full, directory: stat.isDirectory() }];
  // The name a rule is matched against: workspace-relative for relative patterns, else absolute.
  const name = (file: string) => (absolute ? file : path.relative(workspace, file).split(path.sep).join("/"));
  const denied = (file: string) =>
    matchWildcard(pattern, name(file)) && (ctx.check ? ctx.check({ permission, patterns: [name(file)] }) === "deny" : true);
  const out: Target[] = [];
  let budget = MAX_ENFORCEMENT_WALK;
  const walk = (dir: string) => {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return;
    }
    for (const entry of names) {
      if (--budget < 0) return;
      const file = `${dir === "/" ? "" : dir}/${entry}`;
      const info = statOf(file);
      if (!info) continue;
      if (denied(file)) out.push({ path: file, directory: info.isDirectory() });
      else if (info.isDirectory() && !info.isSymbolicLink()) walk(file);
    }
  };
  if (stat.isDirectory()) walk(folder);
  return out;
}

function statOf(file: string) {
  try {
    return lstatSync(file);
  } catch {
    return undefined;
  }
}
