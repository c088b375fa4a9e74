import type { MessageWithParts, PatchPart, Session } from "@lathe/message";
import type { Snapshots } from "../snapshot/index.js";

/**
 * Snapshots around each step, for the loop: the tree at the step's start, and at its end the files
 * that changed in it (whatever changed them). A failing snapshot never breaks a run: it is reported
 * once as a process warning and the step goes on without one.
 */
export class StepSnapshots {
  private warned = false;

  constructor(private readonly snapshots: Snapshots | undefined) {}

  /** False when snapshots are off: {@link StepSnapshots.track} then resolves undefined at once. */
  get enabled(): boolean {
    return this.snapshots?.enabled === true;
  }

  /** The workspace's tree now, or undefined when snapshots are off or failed. */
  async track(): Promise<string | undefined> {
    if (!this.snapshots?.enabled) return undefined;
    try {
      return await this.snapshots.track();
    } catch (error) {
      this.warn(error);
      return undefined;
    }
  }

  /** The files that differ between `from` and `to`. */
  async changed(from: string, to: string): Promise<string[]> {
    try {
      return await this.snapshots!.changedFiles(from, to);
    } catch (error) {
      this.warn(error);
      return [];
    }
  }

  private warn(error: unknown): void {
    if (this.warned) return;
    this.warned = true;
    process.emitWarning(`Lathe snapshots failed; steps go on without them: ${String(error)}`, "LatheSnapshotWarning");
  }
}

/** Where a revert starts: a message, or a part within it. */
export interface RevertPoint {
  messageID: string;
  partID?: string;
}

/** The patch parts recorded at or after a revert point, oldest first. */
export function patchesAfter(history: MessageWithParts[], point: RevertPoint): PatchPart[] {
  const out: PatchPart[] = [];
  let reached = false;
  for (const { info, parts } of history) {
    if (info.id === point.messageID) reached = true;
    if (!reached) continue;
    for (const part of parts) {
      if (info.id === point.messageID && point.partID !== undefined && part.id < point.partID) continue;
      if (part.type === "patch") out.push(part);
    }
  }
  return out;
}

/**
 * For each file the patches touched, the tree to restore it from: the snapshot taken before the
 * first step that changed it. Grouped by tree, so each tree is restored in one call.
 */
export function earliestTrees(patches: PatchPart[]): Map<string, string[]> {
  const firstTree = new Map<string, string>();
  for (const patch of patches) for (const file of patch.files) if (!firstTree.has(file)) firstTree.set(file, patch.hash);
  const byTree = new Map<string, string[]>();
  for (const [file, tree] of firstTree) byTree.set(tree, [...(byTree.get(tree) ?? []), file]);
  return byTree;
}

/** The history with a revert applied for good: messages after the point dropped, the point's message cut at its part. */
export function droppedByRevert(history: MessageWithParts[], revert: NonNullable<Session["revert"]>) {
  const messages: Array<{ sessionID: string; messageID: string }> = [];
  const parts: Array<{ sessionID: string; messageID: string; partID: string }> = [];
  let reached = false;
  for (const { info, parts: own } of history) {
    if (info.id === revert.messageID) {
      reached = true;
      if (revert.partID !== undefined) {
        for (const part of own) if (part.id >= revert.partID) parts.push({ sessionID: info.sessionID, messageID: info.id, partID: part.id });
        continue;
      }
    }
    if (reached) messages.push({ sessionID: info.sessionID, messageID: info.id });
  }
  return { removeMessages: messages, removeParts: parts };
}

/** The history as it stands after a revert: what {@link droppedByRevert} would remove, left out. */
export function afterRevert(history: MessageWithParts[], revert: NonNullable<Session["revert"]>): MessageWithParts[] {
  const dropped = droppedByRevert(history, revert);
  const messages = new Set(dropped.removeMessages.map((m) => m.messageID));
  const parts = new Set(dropped.removeParts.map((p) => p.partID));
  return history
    .filter((m) => !messages.has(m.info.id))
    .map((m) => ({ info: m.info, parts: m.parts.filter((p) => !parts.has(p.id)) }));
}
