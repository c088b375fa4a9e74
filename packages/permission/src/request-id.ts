import { randomBytes } from "node:crypto";

/** The prefix of permission request ids. */
export const REQUEST_ID_PREFIX = "per_";

let lastTime = 0;
let counter = 0;

/**
 * A new request id: `per_` + 12 hex digits of milliseconds + 4 hex digits of a counter + 10 random
 * base-36 characters. Ids sort by creation time and are strictly ascending within a process, even
 * when the clock stands still or steps back.
 */
export function newRequestId(now: number = Date.now()): string {
  if (now > lastTime) {
    lastTime = now;
    counter = 0;
  } else if (++counter > 0xffff) {
    lastTime++;
    counter = 0;
  }
  const time = lastTime.toString(16).padStart(12, "0");
  const seq = counter.toString(16).padStart(4, "0");
  return `${REQUEST_ID_PREFIX}${time}${seq}${randomSuffix()}`;
}

function randomSuffix(): string {
  const bytes = randomBytes(10);
  let s = "";
  for (const b of bytes) s += (b % 36).toString(36);
  return s;
}
