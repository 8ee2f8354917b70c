/** In-process EventBus: synchronous fan-out to the listeners of one task. */
import type { EventBus, LogEntry, LogListener } from '../types.js';

/** Fans appended entries out to listeners in this process. */
export class MemoryEventBus implements EventBus {
  private readonly listeners = new Map<string, Set<LogListener>>();

  /** Delivers at once, without a promise (the hot path of a single process). */
  publish(taskId: string, entry: LogEntry): void {
    const set = this.listeners.get(taskId);
    if (!set) return;
    for (const listener of set) {
      try {
        listener(entry);
      } catch {
        // A failing listener must not stop delivery to the others (spec §3.5.2).
      }
    }
  }

  async subscribe(taskId: string, listener: LogListener): Promise<() => void> {
    let set = this.listeners.get(taskId);
    if (!set) this.listeners.set(taskId, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.listeners.get(taskId) === set) this.listeners.delete(taskId);
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
