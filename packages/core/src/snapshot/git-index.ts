// Reads a git index file (`.git/index`, versions 2 to 4): its entries' paths, modes, sizes, stages
// and flags, and where its extensions lie. Enough to seed the shadow index from the workspace's own
// (see workspace-seed.ts); see git's Documentation/gitformat-index.txt for the format.

/** One entry of a git index. */
export interface GitIndexEntry {
  path: string;
  /** The file mode as a number (0o100644, 0o100755, 0o120000 link, 0o160000 gitlink). */
  mode: number;
  /** The file size git saw when it last looked (the low 32 bits). */
  size: number;
  /** 0, or 1–3 for the sides of an unmerged path. */
  stage: number;
  /** Sparse checkout: git does not expect the file on disk. */
  skipWorktree: boolean;
  /** Added with `git add -N`: no content recorded yet. */
  intentToAdd: boolean;
}

/** One extension block of a git index, by its byte range (header included). */
export interface GitIndexExtension {
  signature: string;
  start: number;
  end: number;
}

/** What {@link readGitIndex} found. */
export interface GitIndex {
  version: number;
  entries: GitIndexEntry[];
  /** Where the entries end and the extensions begin. */
  entriesEnd: number;
  extensions: GitIndexExtension[];
}

const SHA1_BYTES = 20;
const FLAG_EXTENDED = 0x4000;
const FLAG_SKIP_WORKTREE = 0x4000;
const FLAG_INTENT_TO_ADD = 0x2000;

/** Parses a SHA-1 git index; throws on anything it does not understand (the caller then does without). */
export function readGitIndex(data: Buffer): GitIndex {
  if (data.length < 12 + SHA1_BYTES || data.toString("latin1", 0, 4) !== "DIRC") throw new Error("not a git index");
  const version = data.readUInt32BE(4);
  if (version < 2 || version > 4) throw new Error(`git index version ${version} is not supported`);
  const count = data.readUInt32BE(8);
  const end = data.length - SHA1_BYTES;
  const entries: GitIndexEntry[] = new Array(count);
  let offset = 12;
  let previous: Buffer = Buffer.alloc(0);
  for (let i = 0; i < count; i++) {
    const start = offset;
    if (start + 62 > end) throw new Error("truncated git index");
    const mode = data.readUInt32BE(start + 24);
    const size = data.readUInt32BE(start + 36);
    const flags = data.readUInt16BE(start + 60);
    offset = start + 62;
    let extended = 0;
    if (flags & FLAG_EXTENDED) {
      if (version < 3) throw new Error("extended flags in a version 2 index");
      extended = data.readUInt16BE(offset);
      offset += 2;
    }
    let path: Buffer;
    if (version === 4) {
      // The path is the previous one less `strip` bytes, then a NUL-terminated suffix; no padding.
      let byte = data[offset++]!;
      let strip = byte & 0x7f;
      while (byte & 0x80) {
        byte = data[offset++]!;
        strip = ((strip + 1) << 7) | (byte & 0x7f);
      }
      const nul = data.indexOf(0, offset);
      if (nul < 0 || nul > end || strip > previous.length) throw new Error("corrupt git index path");
      path = Buffer.concat([previous.subarray(0, previous.length - strip), data.subarray(offset, nul)]);
      offset = nul + 1;
    } else {
      const nul = data.indexOf(0, offset);
      if (nul < 0 || nul > end) throw new Error("corrupt git index path");
      path = data.subarray(offset, nul);
      // Entries are NUL-padded to a multiple of 8 bytes (at least one NUL).
      offset = start + ((nul - start + 8) & ~7);
    }
    previous = path;
    entries[i] = {
      path: path.toString("utf8"),
      mode,
      size,
      stage: (flags >> 12) & 3,
      skipWorktree: (extended & FLAG_SKIP_WORKTREE) !== 0,
      intentToAdd: (extended & FLAG_INTENT_TO_ADD) !== 0,
    };
  }
  const entriesEnd = offset;
  const extensions: GitIndexExtension[] = [];
  while (offset + 8 <= end) {
    const signature = data.toString("latin1", offset, offset + 4);
    const length = data.readUInt32BE(offset + 4);
    if (offset + 8 + length > end) throw new Error("corrupt git index extension");
    extensions.push({ signature, start: offset, end: offset + 8 + length });
    offset += 8 + length;
  }
  if (offset !== end) throw new Error("corrupt git index");
  return { version, entries, entriesEnd, extensions };
}
