/**
 * Task ownership across server instances. A running task is owned
 * by the instance that runs it through a lease in the shared store:
 *
 * - the runner claims the lease when it starts or resumes a task; a heartbeat renews every held
 *   lease each `ttl / 3`; the lease is released when the execution ends on an unfinished task
 *   (waiting for input: any instance may then continue it; stranded by a failing store:
 *   recovery takes it over) and left to lapse when the task finished (finished tasks need none);
 * - a terminal status that another instance wrote (CancelTask received there) arrives on the
 *   bus: the execution is halted here, its agent's signal aborted, nothing more written;
 * - a lease this instance failed to renew in time may have been taken over: the heartbeat finds
 *   it gone and halts the execution, so two instances never keep writing one task;
 * - every `ttl / 4` each instance looks for running tasks whose lease expired (their instance
 *   died), claims each atomically and hands it to `recover` (resume or fail, see recovery.ts).
 *   A task is therefore taken over at most `1.25 × ttl` after its instance stopped.
 */
import { A2AError } from '../core/errors.js';
import type { TaskState } from '../core/schemas/index.js';
import { isTerminal } from '../core/task-state.js';
import type { LeaseStore, OrphanedTask } from '../stores/types.js';
import type { EventBus, LogEntry, Scope, TaskRecord, TaskStore } from '../stores/types.js';

/** Options of task ownership (`A2AServerOptions.ownership`). */
export interface OwnershipOptions {
  /** This instance's name in lease rows (default: a random id per process). */
  instanceId?: string;
  /** How long a lease lasts without a heartbeat (default 10,000 ms). */
  leaseTtlMs?: number;
}

/** A running execution, as ownership sees it. */
export interface OwnedTask {
  readonly scope: Scope;
  readonly taskId: string;
  /** The seq of the last entry this instance wrote. */
  seq(): number;
  /** Stops the execution without writing anything more. */
  halt(reason: 'finished elsewhere' | 'lease lost'): void;
}

/** What ownership works with. */
export interface OwnershipDeps {
  readonly leases: LeaseStore;
  readonly bus: EventBus;
  /** Takes over an orphaned task this instance just claimed. */
  readonly recover: (orphan: OrphanedTask) => Promise<void>;
  /** True while this process runs the task. */
  readonly isRunning: (taskId: string) => boolean;
  readonly logger?: Pick<Console, 'warn' | 'error'> | undefined;
}

interface Held {
  readonly task: OwnedTask;
  unsubscribe: (() => void) | undefined;
  dropped: boolean;
}

/** Default lease duration. */
export const DEFAULT_LEASE_TTL_MS = 10_000;
const SCAN_BATCH = 100;

/** Leases, heartbeats, cross-instance halts and the recovery loop of one server instance. */
export class TaskOwnership {
  readonly instanceId: string;
  readonly ttlMs: number;
  private readonly held = new Map<string, Held>();
  private readonly timers: ReturnType<typeof setInterval>[] = [];
  private renewing = false;
  private scanning: Promise<void> | undefined;
  private rescan = false;
  private closed = false;

  constructor(
    private readonly deps: OwnershipDeps,
    options: OwnershipOptions = {},
  ) {
    this.instanceId = options.instanceId ?? `instance-${globalThis.crypto.randomUUID()}`;
    this.ttlMs = Math.max(30, options.leaseTtlMs ?? DEFAULT_LEASE_TTL_MS);
  }

  /** Starts the heartbeat and the recovery loop (the first scan runs at once). */
  start(): void {
    const every = (ms: number, fn: () => Promise<void>) => {
      const timer = setInterval(() => void fn(), ms);
      (timer as { unref?: () => void }).unref?.();
      this.timers.push(timer);
    };
    every(this.ttlMs / 3, () => this.renew());
    every(this.ttlMs / 4, () => this.scan());
    void this.scan();
  }

  /**
   * Takes over at once every running task this instance does not hold, instead of waiting for
   * their leases to expire. Only for a store no other live instance uses, e.g. one process on a
   * SQLite file that just restarted after a crash (`a2a serve` calls it once listening): a live
   * instance would see its tasks taken over. Returns how many leases it expired.
   */
  async takeOverAll(): Promise<number> {
    const expired = await this.deps.leases.expireOthers(this.instanceId);
    await this.scan();
    return expired;
  }

  /** Number of tasks whose lease this instance holds. */
  get size(): number {
    return this.held.size;
  }

  /**
   * Claims the lease of a task this instance starts or resumes and watches the bus for a
   * terminal status written elsewhere. False when another instance holds the lease.
   */
  async acquire(task: OwnedTask): Promise<boolean> {
    if (!(await this.deps.leases.claim(task.taskId, this.instanceId, this.ttlMs))) return false;
    this.hold(task);
    return true;
  }

  /**
   * Holds a task whose lease this instance already took (a store that claimed it in the write
   * that created the task, `CreateWithOptions.lease`): heartbeats and the bus watch, as
   * {@link acquire} after its claim.
   */
  hold(task: OwnedTask): void {
    const held: Held = { task, unsubscribe: undefined, dropped: false };
    const previous = this.held.get(task.taskId);
    if (previous) {
      previous.dropped = true;
      previous.unsubscribe?.();
    }
    this.held.set(task.taskId, held);
    // Not awaited: a bus that is reconnecting must not delay the task. A cancel written before
    // the subscription is live still stops it, at its next append (ConcurrencyError).
    this.deps.bus
      .subscribe(task.scope.tenant, task.taskId, (entry) => this.observe(held, entry))
      .then(
        (stop) => {
          if (held.dropped) stop();
          else held.unsubscribe = stop;
        },
        (error: unknown) => this.warn(`could not watch task ${task.taskId} on the bus`, error),
      );
  }

  /**
   * The execution of a task ended in `state`: the heartbeat stops renewing its lease, and an
   * unfinished task (waiting for input, or left behind by a failing store) gets it freed.
   */
  async release(taskId: string, state: TaskState): Promise<void> {
    const held = this.held.get(taskId);
    if (!held) return;
    this.held.delete(taskId);
    held.dropped = true;
    held.unsubscribe?.();
    if (isTerminal(state)) return; // finished tasks need no lease
    await this.deps.leases
      .release(taskId, this.instanceId)
      .catch((e: unknown) => this.warn(`could not release the lease of task ${taskId}`, e));
  }

  /** Stops the timers and the bus watches; held leases lapse (others take the tasks over). */
  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.timers.splice(0)) clearInterval(timer);
    for (const held of this.held.values()) {
      held.dropped = true;
      held.unsubscribe?.();
    }
    this.held.clear();
  }

  /** Renews every held lease now (the heartbeat); halts executions whose lease was lost. */
  async renew(): Promise<void> {
    if (this.renewing || this.closed || this.held.size === 0) return;
    this.renewing = true;
    try {
      const entries = [...this.held.entries()];
      const ids = entries.map(([id]) => id);
      const kept = new Set(await this.deps.leases.renew(this.instanceId, ids, this.ttlMs));
      for (const [id, held] of entries) {
        if (kept.has(id) || this.held.get(id) !== held) continue;
        this.deps.logger?.warn(
          `a2a-kit: instance ${this.instanceId} lost the lease of task ${id} (another instance took it over); stopping it here`,
        );
        held.task.halt('lease lost');
      }
    } catch (error) {
      this.warn('could not renew task leases', error);
    } finally {
      this.renewing = false;
    }
  }

  /** Looks for orphaned tasks now (the recovery loop) and takes over those it can claim. */
  scan(): Promise<void> {
    if (this.closed) return Promise.resolve();
    if (this.scanning) {
      this.rescan = true; // things changed since that scan read the store: look once more
      return this.scanning;
    }
    this.scanning = (async () => {
      try {
        do {
          this.rescan = false;
          // A full batch that brought takeovers may have left more behind it.
          if ((await this.scanOnce()) === SCAN_BATCH) this.rescan = true;
        } while (this.rescan && !this.closed);
      } finally {
        this.scanning = undefined;
      }
    })();
    return this.scanning;
  }

  /** One batch of the recovery loop; returns how many orphans it found when it took any. */
  private async scanOnce(): Promise<number> {
    let claimed = 0;
    try {
      const orphans = await this.deps.leases.expired(SCAN_BATCH, this.ttlMs);
      for (const orphan of orphans) {
        if (this.closed) break;
        const id = orphan.taskId;
        if (this.held.has(id) || this.deps.isRunning(id)) continue;
        if (!(await this.deps.leases.claim(id, this.instanceId, this.ttlMs))) continue;
        claimed++;
        // Not awaited: a resumed agent must not hold up the takeover of the others.
        this.deps.recover(orphan).catch((e: unknown) => {
          this.deps.logger?.error(`a2a-kit: could not take over task ${id}:`, e);
        });
      }
      return claimed > 0 ? orphans.length : 0;
    } catch (error) {
      this.warn('could not look for orphaned tasks', error);
      return 0;
    }
  }

  private observe(held: Held, entry: LogEntry): void {
    if (held.dropped || entry.seq <= held.task.seq()) return;
    const { event } = entry;
    if ('statusUpdate' in event && isTerminal(event.statusUpdate.status.state)) {
      held.task.halt('finished elsewhere');
    }
  }

  private warn(what: string, error: unknown): void {
    if (this.closed) return;
    this.deps.logger?.warn(`a2a-kit: ${what}:`, error);
  }
}

/** The error of a message for a paused task that another instance is resuming right now. */
export function busyElsewhere(taskId: string): A2AError {
  return new A2AError(
    'UNSUPPORTED_OPERATION',
    `Task ${taskId} is being continued on another server instance: wait for its next state`,
    { metadata: { taskId } },
  );
}

/**
 * After an append lost to another writer (ConcurrencyError): silent when the task is finished
 * (canceled on another instance), a warning otherwise (another instance took it over).
 */
export async function reportConflict(
  store: TaskStore,
  scope: Scope,
  taskId: string,
  logger: Pick<Console, 'warn'> | undefined,
): Promise<void> {
  let record: TaskRecord | undefined;
  try {
    record = await store.get(scope, taskId);
  } catch {
    record = undefined;
  }
  if (record && isTerminal(record.task.status.state)) return;
  logger?.warn(
    `a2a-kit: task ${taskId} was changed by another writer; this instance stopped running it`,
  );
}
