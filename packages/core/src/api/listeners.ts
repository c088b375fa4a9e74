import { EventEmitter } from "eventemitter3";
import type { AgentEvent, AgentEventMap } from "../events.js";

type Listener = (...args: unknown[]) => void;

/**
 * The agent's event listeners (`on`, `once`, `off`). Each listener is wrapped so that one that throws
 * neither breaks the loop nor keeps the event from the listeners after it; the error is reported as a
 * process warning, once per listener.
 */
export class Listeners {
  private readonly emitter = new EventEmitter<AgentEventMap>();
  private readonly warnedListeners = new WeakSet<object>();
  /** The guarded wrapper of each listener, per event type, so `off` finds it. */
  private readonly wrappers = new WeakMap<object, Map<keyof AgentEventMap, Listener>>();

  on(type: keyof AgentEventMap, listener: object): void {
    this.emitter.on(type, this.guarded(type, listener) as never);
  }

  once(type: keyof AgentEventMap, listener: object): void {
    this.emitter.once(type, this.guarded(type, listener) as never);
  }

  off(type: keyof AgentEventMap, listener: object): void {
    const wrapper = this.wrappers.get(listener)?.get(type);
    if (wrapper) this.emitter.off(type, wrapper as never);
  }

  /** Hands an event to the listeners of its type, then to those of `*`. */
  emit(event: AgentEvent): void {
    this.emitter.emit(event.type, event as never);
    this.emitter.emit("*", event);
  }

  removeAll(): void {
    this.emitter.removeAllListeners();
  }

  private guarded(type: keyof AgentEventMap, listener: object): Listener {
    let byType = this.wrappers.get(listener);
    if (!byType) this.wrappers.set(listener, (byType = new Map()));
    let wrapper = byType.get(type);
    if (!wrapper) {
      wrapper = (...args: unknown[]) => {
        try {
          (listener as Listener)(...args);
        } catch (error) {
          // Once per listener: a broken listener would otherwise flood the warnings, one per delta.
          if (this.warnedListeners.has(listener)) return;
          this.warnedListeners.add(listener);
          process.emitWarning(`A Lathe event listener threw on ${String(type)}: ${String(error)}`, "LatheListenerWarning");
        }
      };
      byType.set(type, wrapper);
    }
    return wrapper;
  }
}
