/**
 * Ownership leases of the in-memory store: only useful when several A2AServers in one process
 * share a MemoryTaskStore (tests of multi-instance behaviour), but they follow the same rules as
 * the durable stores so the shared lease suite runs on them too.
 */
import type { Task, TaskState } from '../../core/schemas/index.js';
import { isInterrupted, isTerminal } from '../../core/task-state.js';
import type {
  IdleInterruptedTask,
  InterruptedTaskIndex,
  LeaseStore,
  OrphanedTask,
} from '../types.js';
import type { Scope } from '../types.js';

/** What the leases read of a MemoryTaskStore entry. */
export interface LeasedEntry {
  readonly scope: Scope;
  readonly projection: { readonly task: Task };
  /** Last change, in ms since the epoch. */
  readonly updatedAt: number;
}

interface Lease {
  owner: string;
  expiresAt: number;
}

const stateOf = (entry: LeasedEntry): TaskState => entry.projection.task.status.state;

/** Leases in a Map, next to a MemoryTaskStore's tasks (and the idle interrupted-task scan). */
export class MemoryLeases implements LeaseStore, InterruptedTaskIndex {
  private readonly leases = new Map<string, Lease>();

  /** `tasks`: the store's live map of tasks by id. */
  constructor(private readonly tasks: ReadonlyMap<string, LeasedEntry>) {}

  async claim(taskId: string, instanceId: string, ttlMs: number): Promise<boolean> {
    const task = this.tasks.get(taskId);
    if (!task || isTerminal(stateOf(task))) return false;
    const now = Date.now();
    const lease = this.leases.get(taskId);
    if (lease && lease.owner !== instanceId && lease.expiresAt >= now) return false;
    this.leases.set(taskId, { owner: instanceId, expiresAt: now + ttlMs });
    return true;
  }

  async renew(instanceId: string, taskIds: readonly string[], ttlMs: number): Promise<string[]> {
    const until = Date.now() + ttlMs;
    return taskIds.filter((id) => {
      const lease = this.leases.get(id);
      if (lease?.owner !== instanceId) return false;
      lease.expiresAt = until;
      return true;
    });
  }

  async release(taskId: string, instanceId: string): Promise<void> {
    if (this.leases.get(taskId)?.owner === instanceId) this.leases.delete(taskId);
  }

  async expired(limit: number, unclaimedMs: number): Promise<OrphanedTask[]> {
    const now = Date.now();
    const found: OrphanedTask[] = [];
    for (const [taskId, task] of this.tasks) {
      if (found.length >= limit) break;
      const state = stateOf(task);
      if (isTerminal(state)) {
        this.leases.delete(taskId); // finished: its lease no longer matters
        continue;
      }
      if (isInterrupted(state)) continue;
      const lease = this.leases.get(taskId);
      const orphaned = lease ? lease.expiresAt < now : task.updatedAt < now - unclaimedMs;
      if (orphaned) {
        found.push({ scope: task.scope, taskId, previousOwner: lease?.owner || undefined });
      }
    }
    return found;
  }

  async expireOthers(instanceId: string): Promise<number> {
    let freed = 0;
    for (const [taskId, task] of this.tasks) {
      const state = stateOf(task);
      if (isTerminal(state)) continue;
      const lease = this.leases.get(taskId);
      if (lease?.owner === instanceId) continue;
      // An expiry in the past makes unclaimed tasks orphaned at once too.
      this.leases.set(taskId, { owner: lease?.owner ?? '', expiresAt: 0 });
      freed++;
    }
    return freed;
  }

  async idle(idleMs: number, limit: number): Promise<IdleInterruptedTask[]> {
    const before = Date.now() - idleMs;
    const found: (IdleInterruptedTask & { at: number })[] = [];
    for (const [taskId, task] of this.tasks) {
      if (isInterrupted(stateOf(task)) && task.updatedAt <= before) {
        found.push({ scope: task.scope, taskId, at: task.updatedAt });
      }
    }
    found.sort((a, b) => a.at - b.at);
    return found.slice(0, Math.max(0, limit)).map(({ scope, taskId }) => ({ scope, taskId }));
  }

  /** Forgets the lease of a deleted task. */
  forget(taskId: string): void {
    this.leases.delete(taskId);
  }
}
