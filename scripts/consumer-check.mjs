#!/usr/bin/env node
// A consumer's first hour, automated (run by `npm test`). Packs every publishable workspace package
// once and installs the tarballs into a fresh app in the system's temporary folder, then checks:
//   - each tarball: README, LICENSE, no path of the build machine; publint; arethetypeswrong (ESM-only)
//   - require() of every package works (Node >= 22 loads ES modules from CommonJS)
//   - the README's Quick start, its model swapped for a scripted one, run in an empty directory,
//     prints the assistant's words and nothing else; as written, without an API key, it exits
//     non-zero and says why
//   - the Quick start as written and every README/docs snippet type-check against the packed
//     packages under node16, nodenext and bundler resolution, skipLibCheck off
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { checkDocSnippets } from "./check-doc-snippets.mjs";
import { inParallel, runAsync } from "./consumer/parallel.mjs";
import { prepareConsumerApp } from "./consumer/prepare.mjs";
import { EXPECTED_OUTPUT, withScriptedModel, withWorkspace } from "./consumer/quick-start.mjs";
import { snippetUnder } from "./consumer/snippets.mjs";
import { root } from "./workspace-packages.mjs";

const failures = [];
const check = (ok, message) => {
  if (!ok) failures.push(message);
  console.log(`${ok ? "ok  " : "FAIL"} ${message.split("\n")[0]}`);
};
const bin = (name) => join(root, "node_modules", ".bin", name);

const checkStarted = Date.now();
const { tmp, app, tarballs, problems } = prepareConsumerApp(root);
console.log(`packed ${tarballs.length} packages (${tarballs.map((t) => t.name).join(", ")}) and installed them into ${app}`);
for (const problem of problems) check(false, problem);
check(problems.length === 0, "every tarball has its README and LICENSE and no path of the build machine");

// ESM-only by design: attw's esm-only profile leaves out node10 and require() from CommonJS under
// node16, which Node >= 22 supports (checked below) but TypeScript's node16 mode cannot express.
const lints = tarballs.flatMap(({ name, tarball }) => [
  { what: `publint ${name}`, command: bin("publint"), args: ["run", tarball, "--strict"] },
  { what: `arethetypeswrong ${name}`, command: bin("attw"), args: [tarball, "--profile", "esm-only", "--no-definitely-typed", "--format", "ascii", "--no-color"] },
]);
let started = Date.now(); // of each timed phase
for (const [i, result] of (await inParallel(lints, ({ command, args }) => runAsync(command, args))).entries()) {
  check(result.status === 0, `${lints[i].what}${result.status === 0 ? "" : `\n${result.stdout}${result.stderr}`}`);
}
console.log(`  publint and arethetypeswrong: ${((Date.now() - started) / 1000).toFixed(1)} s`);

// require() from CommonJS, as an app without "type": "module" would.
const requireCheck = join(app, "require-check.cjs");
writeFileSync(
  requireCheck,
  `for (const name of ${JSON.stringify(tarballs.map((t) => t.name))}) {
  const exported = Object.keys(require(name));
  if (exported.length === 0) throw new Error(name + " exports nothing through require()");
}
if (typeof require("@lathe/core").createAgent !== "function") throw new Error("require('@lathe/core').createAgent is not a function");
`,
);
const required = spawnSync(process.execPath, [requireCheck], { cwd: app, encoding: "utf8" });
check(required.status === 0, `require() of every package works on Node ${process.versions.node}\n${required.stderr}`);

// The Quick start, run in an empty directory: the storage path is relative to it.
const quickStart = snippetUnder(readFileSync(join(root, "README.md"), "utf8"), "Quick start");
const runQuickStart = (file, code, env, cwd) => {
  mkdirSync(cwd);
  writeFileSync(join(app, file), code);
  const result = spawnSync(process.execPath, [join(app, file)], { cwd, env, encoding: "utf8", timeout: 60_000 });
  return { ...result, cwd };
};
{
  const workspace = join(tmp, "run-quick-start-ts");
  const result = runQuickStart("quick-start.ts", withScriptedModel(quickStart, workspace), process.env, workspace);
  check(result.status === 0, `the Quick start (scripted model) exits 0 in an empty directory\n${result.stderr}`);
  check(result.stdout === EXPECTED_OUTPUT, `it prints only the assistant's words\n  expected: ${JSON.stringify(EXPECTED_OUTPUT)}\n  printed:  ${JSON.stringify(result.stdout)}`);
  check(existsSync(join(result.cwd, "NOTES.md")), "its tool call wrote NOTES.md in the workspace");
  check(existsSync(join(result.cwd, ".lathe", "db.sqlite")), "its SQLite storage is at ./.lathe/db.sqlite");
}
{
  const env = { ...process.env };
  delete env.ANTHROPIC_API_KEY;
  const workspace = join(tmp, "run-quick-start-verbatim-ts");
  const result = runQuickStart("quick-start-verbatim.ts", withWorkspace(quickStart, workspace), env, workspace);
  check(result.status !== 0 && result.status !== null, `the Quick start as written, without an API key, exits non-zero (exit ${result.status ?? result.signal})`);
  check(result.stdout === "", `it prints no words (printed ${JSON.stringify(result.stdout)})`);
  check(/api key/i.test(result.stderr), `it says the API key is missing\n${result.stderr}`);
}

started = Date.now();
const { errors, snippets, files } = await checkDocSnippets(app, ["quick-start.ts", "quick-start-verbatim.ts"]);
console.log(`  type-checks: ${((Date.now() - started) / 1000).toFixed(1)} s`);
check(errors.length === 0, `the Quick start and ${snippets} snippets of ${files} Markdown files type-check (node16, nodenext, bundler; skipLibCheck off)\n${errors.join("\n")}`);

rmSync(tmp, { recursive: true, force: true });
if (failures.length > 0) {
  console.error(`\nconsumer check: ${failures.length} failure(s):\n\n${failures.join("\n\n")}`);
  process.exit(1);
}
console.log(`consumer check: all passed in ${((Date.now() - checkStarted) / 1000).toFixed(0)} s`);
