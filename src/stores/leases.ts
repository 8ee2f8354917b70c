/**
 * Task ownership leases (scale-out): a running task is owned by one server instance
 * through a lease that the instance renews with heartbeats. When an instance dies its leases
 * expire and another instance takes the task over (resumes or fails it).
 *
 * Lease times come from the store's own clock (the database server's for PostgreSQL), never from
 * the caller: instances whose clocks disagree must still agree on when a lease expired.
 */
import type { Scope, TaskStore } from './types.js';

/** A running task whose owner stopped renewing its lease (or that was never claimed). */
export interface OrphanedTask {
  readonly scope: Scope;
  readonly taskId: string;
  /** The instance that held the lease, if any. */
  readonly previousOwner: string | undefined;
}

/** Leases on running tasks, kept beside the tasks (stores that several instances share). */
export interface LeaseStore {
  /**
   * Takes the lease of an unfinished task for `ttlMs` when nobody holds it, `instanceId` already
   * does, or the holder's lease expired. Atomic: of two instances claiming, one gets `true`.
   */
  claim(taskId: string, instanceId: string, ttlMs: number): Promise<boolean>;
  /** Extends the leases `instanceId` holds among `taskIds`; returns the ids it still holds. */
  renew(instanceId: string, taskIds: readonly string[], ttlMs: number): Promise<string[]>;
  /** Gives the lease up (a no-op unless `instanceId` holds it). */
  release(taskId: string, instanceId: string): Promise<void>;
  /**
   * Unfinished tasks that are not waiting for input (SUBMITTED, WORKING) whose lease expired, or
   * that nobody claimed and that have not changed for `unclaimedMs`; at most `limit` of them.
   */
  expired(limit: number, unclaimedMs: number): Promise<OrphanedTask[]>;
  /**
   * Expires at once the leases of unfinished tasks not held by `instanceId`, for a store no other
   * live instance uses (one process on a SQLite file, just restarted); returns how many.
   */
  expireOthers(instanceId: string): Promise<number>;
}

/** A task store that also keeps ownership leases on its tasks. */
export interface LeasingTaskStore extends TaskStore {
  /** The leases, kept in the same database as the tasks. */
  leaseStore(): LeaseStore;
  /**
   * False for a store only servers of one process can share (memory): its leases are used when
   * ownership is asked for, not by default.
   */
  readonly leasesByDefault?: boolean;
}

/**
 * The leases of a task store, or undefined when it keeps none, or keeps them only for those who
 * ask (`asked` false: ownership was not configured).
 */
export function leaseStoreOf(store: TaskStore, asked = true): LeaseStore | undefined {
  const leasing = store as Partial<LeasingTaskStore>;
  if (typeof leasing.leaseStore !== 'function') return undefined;
  if (!asked && leasing.leasesByDefault === false) return undefined;
  return leasing.leaseStore();
}
