import { randomBytes } from "node:crypto";

/** The kinds of id Lathe hands out, each with its own prefix. */
export const ID_PREFIXES = {
  session: "ses",
  message: "msg",
  part: "prt",
  permission: "per",
  tool: "call",
  queued: "que",
} as const;

/** A kind of id: the key of {@link ID_PREFIXES}. */
export type IdKind = keyof typeof ID_PREFIXES;

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const RANDOM_LENGTH = 14;
// A 12-bit counter under the millisecond: 4,096 ids per millisecond before we borrow the next one.
const COUNTER_LIMIT = 4096;

/**
 * Generates sortable, ascending ids: `<prefix>_<12 hex digits of ms><3 hex digits of counter><14 random base62>`.
 * Ids made by one generator compare (as strings) in creation order, even within one millisecond and
 * even when the clock steps back, because the time part never decreases.
 */
export class IdGenerator {
  private lastTime = 0;
  private counter = 0;

  /** A new id of the given kind. */
  next(kind: IdKind): string {
    const now = Date.now();
    if (now > this.lastTime) {
      this.lastTime = now;
      this.counter = 0;
    } else if (++this.counter >= COUNTER_LIMIT) {
      // Same millisecond (or the clock stepped back): borrow the next millisecond.
      this.lastTime++;
      this.counter = 0;
    }
    const time = this.lastTime.toString(16).padStart(12, "0");
    const counter = this.counter.toString(16).padStart(3, "0");
    return `${ID_PREFIXES[kind]}_${time}${counter}${randomSuffix()}`;
  }
}

// Random bytes are drawn from the system in blocks: one call per id cost more than the rest of
// making it (ids are made for every part a step streams).
const POOL_SIZE = RANDOM_LENGTH * 256;
let pool = Buffer.alloc(0);
let poolOffset = POOL_SIZE;

function randomSuffix(): string {
  if (poolOffset + RANDOM_LENGTH > pool.length) {
    pool = randomBytes(POOL_SIZE);
    poolOffset = 0;
  }
  let out = "";
  for (let i = poolOffset; i < poolOffset + RANDOM_LENGTH; i++) out += BASE62[pool[i]! % 62];
  poolOffset += RANDOM_LENGTH;
  return out;
}

const defaultGenerator = new IdGenerator();

/**
 * A new ascending id of the given kind (`ses_…`, `msg_…`, `prt_…`, `per_…`, `call_…`).
 * Ids sort in the order they were made, so storage order is creation order.
 */
export function createId(kind: IdKind): string {
  return defaultGenerator.next(kind);
}

/** The creation time (ms since epoch) encoded in an id made by {@link createId}. */
export function idTimestamp(id: string): number {
  const start = id.indexOf("_") + 1;
  return parseInt(id.slice(start, start + 12), 16);
}
