/** In-process EventBus: synchronous fan-out to the listeners of one task of one tenant. */
import { busKey } from '../bus-key.js';
import type { EventBus, LogEntry, LogListener } from '../types.js';

/** Fans appended entries out to listeners in this process. */
export class MemoryEventBus implements EventBus {
  private readonly listeners = new Map<string, Set<LogListener>>();

  /** Delivers at once, without a promise (the hot path of a single process). */
  publish(tenant: string, taskId: string, entry: LogEntry): void {
    // No listener at all (blocking sends, no stream open): no key to build.
    if (this.listeners.size === 0) return;
    const set = this.listeners.get(busKey(tenant, taskId));
    if (!set) return;
    for (const listener of set) {
      try {
        listener(entry);
      } catch {
        // A failing listener must not stop delivery to the others (spec §3.5.2).
      }
    }
  }

  async subscribe(tenant: string, taskId: string, listener: LogListener): Promise<() => void> {
    const key = busKey(tenant, taskId);
    let set = this.listeners.get(key);
    if (!set) this.listeners.set(key, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.listeners.get(key) === set) this.listeners.delete(key);
    };
  }

  /** Number of tasks with listeners (for tests: nothing may leak). */
  get activeTasks(): number {
    return this.listeners.size;
  }

  async close(): Promise<void> {
    this.listeners.clear();
  }
}
