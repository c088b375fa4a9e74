// The README's Quick start as a consumer copies it, and the same program with its model swapped for
// a scripted one, so it runs offline and its output can be checked word for word.

/** What the scripted model says, and what the Quick start must print: its text and nothing else. */
export const SCRIPT = [
  {
    reasoning: "REASONING that must not be printed.",
    text: "I'll write the notes. ",
    toolCalls: [{ name: "write", input: { path: "NOTES.md", content: "TOOL INPUT that must not be printed.\n" } }],
  },
  { text: "Done: NOTES.md is written." },
];
export const EXPECTED_OUTPUT = "I'll write the notes. Done: NOTES.md is written.";

// A property on a line of its own, with its trailing comment (the lines the Quick start swaps).
const MODEL_LINE = /^([ \t]*)model:[^\n]*$/m;
const CWD_LINE = /^([ \t]*)cwd:[^\n]*$/m;

function replaceOnce(code, pattern, replacement, what) {
  if (!pattern.test(code)) throw new Error(`the Quick start has no ${what} line to replace`);
  return code.replace(pattern, replacement);
}

/** The Quick start with its workspace (`cwd`) set to `cwd`: otherwise as written. */
export function withWorkspace(code, cwd) {
  return replaceOnce(code, CWD_LINE, (_, indent) => `${indent}cwd: ${JSON.stringify(cwd)},`, "`cwd:`");
}

/**
 * The Quick start with its workspace set to `cwd` and its model replaced by `mockModel(SCRIPT)`
 * (and the provider import that made the model dropped).
 */
export function withScriptedModel(code, cwd) {
  const provider = /^import[ \t]*\{[ \t]*(\w+)[ \t]*\}[ \t]*from[ \t]*"(@ai-sdk\/[^"]+)";?[ \t]*$/m.exec(code);
  if (!provider) throw new Error("the Quick start imports no AI SDK provider to replace");
  let out = code.replace(provider[0], `import { mockModel } from "@lathe/mock";`);
  out = replaceOnce(out, MODEL_LINE, (_, indent) => `${indent}model: mockModel(${JSON.stringify(SCRIPT)}),`, "`model:`");
  return withWorkspace(out, cwd);
}
