import type { Part } from "@lathe/message";
import type { StepSnapshots } from "../session/file-history.js";
import type { TurnRecorder } from "./turn-recorder.js";

// The snapshots of a turn's steps, kept off the model request's critical path: a step's request
// starts at once while the snapshot of its starting tree is taken beside it. Only a tool that may
// change files waits for that snapshot (so what it changes is attributed to its step); a step that
// only reads never waits.

/** The snapshot of the tree one step started from, possibly still being taken. */
export interface StepTree {
  /** Resolves with the tree (undefined when snapshots are off or failed); never rejects. */
  readonly tree: Promise<string | undefined>;
  /** The tree once known (also before the step began, when carried over from the previous step). */
  readonly value: string | undefined;
}

class PendingTree implements StepTree {
  value: string | undefined;
  settled = false;
  readonly tree: Promise<string | undefined>;

  constructor(tree: Promise<string | undefined>) {
    this.tree = tree.then((value) => {
      this.value = value;
      this.settled = true;
      return value;
    });
  }

  static known(value: string | undefined): PendingTree {
    const known = new PendingTree(Promise.resolve(value));
    known.value = value;
    known.settled = true;
    return known;
  }
}

/** The step trees of one turn. */
export class StepTrees {
  /** The tree the next step starts from, when the last step's end is known or still being taken. */
  private next: PendingTree | undefined;
  /** Work that fills in parts once a snapshot lands; the turn waits for it before it ends. */
  private readonly filling = new Set<Promise<void>>();

  constructor(private readonly snapshots: StepSnapshots) {}

  /**
   * The snapshot of the tree a step starts from, without waiting for it. A snapshot still being
   * taken when the previous step changed no files is reused (nothing of the agent's changed the
   * tree since it began), so a fast run of read-only steps never piles snapshots up; a settled one
   * is reused only when the last step recorded it at its end.
   */
  begin(): StepTree {
    if (!this.snapshots.enabled) return PendingTree.known(undefined);
    const carried = this.next;
    this.next = undefined;
    if (carried) return carried;
    return new PendingTree(this.snapshots.track());
  }

  /**
   * Records on the step's parts (from `first` on) the tree it started from — on its step-start
   * part — once the snapshot lands, without holding the step up.
   */
  fillStart(step: StepTree, recorder: TurnRecorder, first: number): void {
    const parts = recorder.parts.slice(first);
    this.fill(step, (tree) => {
      for (const part of parts) if (part.type === "step-start" && part.snapshot === undefined) setSnapshot(recorder, part, tree);
    });
  }

  /**
   * Ends a step. When it ran a tool that may change files, the tree now is taken and compared with
   * the starting one; returns the files changed (empty when none or snapshots are off). A step that
   * only read does not wait: its end is its start, recorded on the step-finish part when known.
   */
  async finish(step: StepTree, recorder: TurnRecorder, changedFiles: boolean): Promise<{ before: string; files: string[] } | undefined> {
    const finish = recorder.parts.findLast((p) => p.type === "step-finish");
    if (!changedFiles) {
      const pending = step as PendingTree;
      // Still being taken: the next step may use it; settled: the next step takes a fresh one.
      if (!pending.settled) this.next = pending;
      if (finish) this.fill(step, (tree) => setSnapshot(recorder, finish, tree));
      return undefined;
    }
    const before = await step.tree;
    if (before === undefined) return undefined;
    const after = await this.snapshots.track();
    if (after === undefined) return undefined;
    this.next = PendingTree.known(after);
    if (finish) setSnapshot(recorder, finish, after);
    if (after === before) return undefined;
    return { before, files: await this.snapshots.changed(before, after) };
  }

  /** Waits until every snapshot of the turn has landed on its parts. */
  async settle(): Promise<void> {
    while (this.filling.size > 0) await Promise.all([...this.filling]);
  }

  private fill(step: StepTree, apply: (tree: string) => void): void {
    if (step.value !== undefined) {
      apply(step.value);
      return;
    }
    const work = step.tree.then((tree) => {
      if (tree !== undefined) apply(tree);
    });
    this.filling.add(work);
    void work.finally(() => this.filling.delete(work));
  }
}

function setSnapshot(recorder: TurnRecorder, part: Part, tree: string): void {
  if (part.type !== "step-start" && part.type !== "step-finish") return;
  part.snapshot = tree;
  recorder.changed(part);
}
