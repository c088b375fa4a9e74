import { describe, it, expect, vi, beforeEach, afterEach } from "vitest";
import { sleep } from "./sleep.js";

/** Whether a promise has settled yet (without waiting for it to). */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  promise.then(
    () => (done = true),
    () => (done = true),
  );
  await Promise.resolve();
  await Promise.resolve();
  return done;
}

describe("sleep", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("resolves after the delay and not before", async () => {
    const done = sleep(1_000);
    await vi.advanceTimersByTimeAsync(999);
    expect(await settled(done)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await settled(done)).toBe(true);
    await expect(done).resolves.toBeUndefined();
    expect(vi.getTimerCount()).toBe(0);
  });

  it("resolves a zero, negative or NaN delay on the next tick", async () => {
    for (const ms of [0, -50, Number.NaN]) {
      const done = sleep(ms);
      await vi.advanceTimersByTimeAsync(0);
      await expect(done).resolves.toBeUndefined();
    }
  });

  it("waits through a delay beyond setTimeout's range instead of firing at once", async () => {
    const done = sleep(Number.POSITIVE_INFINITY);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(await settled(done)).toBe(false);
    vi.clearAllTimers();
  });

  it("rejects with the signal's reason as soon as it aborts, and clears its timer", async () => {
    const controller = new AbortController();
    const done = sleep(30_000, controller.signal);
    await vi.advanceTimersByTimeAsync(5_000);
    const reason = new Error("stopped by the host");
    controller.abort(reason);
    await expect(done).rejects.toBe(reason);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("rejects with an AbortError when the signal aborts without a reason", async () => {
    const controller = new AbortController();
    const done = sleep(30_000, controller.signal);
    controller.abort();
    await expect(done).rejects.toMatchObject({ name: "AbortError" });
  });

  it("rejects at once, starting no timer, when the signal has already aborted", async () => {
    const reason = new Error("already cancelled");
    const done = sleep(30_000, AbortSignal.abort(reason));
    expect(vi.getTimerCount()).toBe(0);
    await expect(done).rejects.toBe(reason);
  });

  it("stops listening to the signal once it has resolved", async () => {
    const controller = new AbortController();
    const remove = vi.spyOn(controller.signal, "removeEventListener");
    const done = sleep(100, controller.signal);
    await vi.advanceTimersByTimeAsync(100);
    await expect(done).resolves.toBeUndefined();
    expect(remove).toHaveBeenCalledWith("abort", expect.any(Function));
    controller.abort(new Error("late"));
    await expect(done).resolves.toBeUndefined();
  });
});
