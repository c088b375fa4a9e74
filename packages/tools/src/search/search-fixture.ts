// Test fixture (not exported): a small tree with ignore files, hidden files, a binary file, a
// symlink and a .git folder, with distinct modification times.
import { mkdir, symlink, utimes, writeFile } from "node:fs/promises";
import path from "node:path";

export const FIXTURE_FILES: Record<string, string | Buffer> = {
  ".gitignore": "dist/\n*.log\n!keep.log\n",
  "README.md": "# demo\nTODO: write docs\n",
  "keep.log": "TODO kept log\n",
  "debug.log": "TODO ignored log\n",
  "dist/bundle.js": "TODO bundled\n",
  "src/app.ts": "export function main() {\n  // TODO: start\n  return 1;\n}\n",
  "src/util.ts": "export const todo = 'TODO';\nexport function helper() {}\n",
  "src/view.tsx": "// TODO view\n",
  "src/nested/.gitignore": "generated.ts\n",
  "src/nested/generated.ts": "TODO generated\n",
  "src/nested/deep.ts": "function deep() { /* TODO deep */ }\n",
  ".config/settings.json": '{ "todo": "TODO hidden" }\n',
  ".ignore": "scratch/\n",
  "scratch/notes.txt": "TODO scratch\n",
  "image.bin.dat": Buffer.from([0x54, 0x4f, 0x44, 0x4f, 0x00, 0x01]),
  "blob": Buffer.concat([Buffer.from("TODO in binary\n"), Buffer.from([0, 1, 2])]),
  ".git/config": "TODO git internals\n",
};

/** Writes the fixture under `dir`, each file a second older than the one before. */
export async function writeSearchFixture(dir: string): Promise<void> {
  let age = 0;
  for (const [file, content] of Object.entries(FIXTURE_FILES)) {
    const absolute = path.join(dir, file);
    await mkdir(path.dirname(absolute), { recursive: true });
    await writeFile(absolute, content);
    const time = new Date(Date.UTC(2024, 0, 1) - ++age * 1000);
    await utimes(absolute, time, time);
  }
  await symlink(path.join(dir, "src/app.ts"), path.join(dir, "link.ts"));
}
