/** How a file command's operands are read. */
export interface FileCommand {
  /** The operands are folders (`cd`, `mkdir`): `external_directory` asks for them, not their parents. */
  directory?: boolean;
  /** The first operand is a mode or owner, not a path (`chmod 644 f`). */
  modeFirst?: boolean;
  /** The operands are written (`tee f`). */
  write?: boolean;
}

/** Commands whose operands are paths (checked against the workspace). A Map: no prototype keys. */
export const FILE_COMMANDS: ReadonlyMap<string, FileCommand> = new Map<string, FileCommand>([
  ["cd", { directory: true }], ["mkdir", { directory: true }], ["rmdir", { directory: true }], ["pushd", { directory: true }],
  ["rm", {}], ["cp", {}], ["mv", {}], ["ln", {}], ["touch", {}], ["truncate", {}], ["shred", {}], ["unlink", {}],
  ["install", {}], ["chmod", { modeFirst: true }], ["chown", { modeFirst: true }], ["chgrp", { modeFirst: true }],
  ["cat", {}], ["head", {}], ["tail", {}], ["less", {}], ["more", {}], ["ls", { directory: true }], ["wc", {}], ["stat", {}], ["file", {}],
  ["diff", {}], ["cmp", {}], ["du", { directory: true }], ["nl", {}], ["od", {}], ["xxd", {}], ["realpath", {}], ["readlink", {}],
  ["tee", { write: true }],
]);
