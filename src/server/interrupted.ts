/**
 * Abandoned tasks: a task left in INPUT_REQUIRED or AUTH_REQUIRED (spec §3.1, interrupted
 * states) that nobody answers for `ttlMs` is CANCELED with a status message that says why, and
 * one caller (tenant and principal) may hold at most `maxPerCaller` interrupted tasks: past that
 * a message that would start a new task is refused. The expiry is driven by the store (its
 * `interrupted` facet finds idle interrupted tasks on the store's clock), so it survives restarts
 * and works across instances; the cancel goes through the TaskLog with the seq it read, so of
 * several instances only one writes it (the others get a ConcurrencyError and move on).
 */
import { A2AError } from '../core/errors.js';
import type { TaskState } from '../core/schemas/index.js';
import { isInterrupted } from '../core/task-state.js';
import {
  ConcurrencyError,
  type IdleInterruptedTask,
  type InterruptedTaskIndex,
  type Scope,
} from '../stores/types.js';
import { TaskHandle } from './task-handle.js';
import { positionOf, type TaskLog } from './task-log.js';

/** Options of `A2AServerOptions.interrupted`. */
export interface InterruptedOptions {
  /**
   * How long a task may wait in INPUT_REQUIRED or AUTH_REQUIRED without a change before it is
   * CANCELED (default 24 h).
   */
  ttlMs?: number;
  /**
   * How many interrupted tasks one caller (tenant and principal) may hold; a message that would
   * start one more task is refused with RATE_LIMITED until the caller answers or cancels some
   * (default 1,000).
   */
  maxPerCaller?: number;
}

/** Default of `InterruptedOptions.ttlMs`: 24 hours. */
export const DEFAULT_INTERRUPTED_TTL_MS = 24 * 60 * 60_000;
/** Default of `InterruptedOptions.maxPerCaller`. */
export const DEFAULT_INTERRUPTED_PER_CALLER = 1_000;

const SCAN_BATCH = 100;
/** How long a caller's count of interrupted tasks is trusted while far from the cap. */
const RECOUNT_MS = 1_000;
/** Callers whose count is kept (the least recently counted go first). */
const MAX_COUNTED_CALLERS = 10_000;

/**
 * A caller's last count of interrupted tasks, when it was read, the tasks started since, and the
 * store's version it was read at (`InterruptedTaskIndex.version`).
 */
interface CallerCount {
  held: number;
  at: number;
  started: number;
  version: number | undefined;
}

/**
 * The counts of each store whose every change this process sees, shared by every server on it
 * (then every task started on that store is counted): a store only servers of one process share
 * (memory), or one whose `version` tells when another process (or another store object) wrote.
 * Other stores keep none (each new task counts afresh).
 */
const SHARED_COUNTS = new WeakMap<object, Map<string, CallerCount>>();

function countsOf(
  store: TaskLog['store'],
  index: InterruptedTaskIndex | undefined,
): Map<string, CallerCount> | undefined {
  if (store.facets?.leasesByDefault !== false && index?.version === undefined) return undefined;
  let counts = SHARED_COUNTS.get(store);
  if (!counts) SHARED_COUNTS.set(store, (counts = new Map()));
  return counts;
}
const INTERRUPTED_STATES: readonly TaskState[] = [
  'TASK_STATE_INPUT_REQUIRED',
  'TASK_STATE_AUTH_REQUIRED',
];

/** The status message of a task canceled by expiry. */
export function expiredText(ttlMs: number): string {
  return `Canceled: no answer within ${duration(ttlMs)} (A2AServer option interrupted.ttlMs)`;
}

/** The expiry loop and the per-caller cap of one server instance. */
export class InterruptedTasks {
  readonly ttlMs: number;
  readonly maxPerCaller: number;
  private timer: ReturnType<typeof setInterval> | undefined;
  private scanning: Promise<void> | undefined;
  /** Per caller: the last count, when it was read, and the tasks started since. */
  private readonly counts: Map<string, CallerCount> | undefined;

  constructor(
    private readonly log: TaskLog,
    private readonly index: InterruptedTaskIndex | undefined,
    options: InterruptedOptions = {},
    private readonly logger?: Pick<Console, 'warn' | 'error'> | undefined,
  ) {
    this.ttlMs = positive('interrupted.ttlMs', options.ttlMs, DEFAULT_INTERRUPTED_TTL_MS);
    this.counts = countsOf(log.store, index);
    this.maxPerCaller = positive(
      'interrupted.maxPerCaller',
      options.maxPerCaller,
      DEFAULT_INTERRUPTED_PER_CALLER,
    );
  }

  /** Starts the periodic scan (a quarter of the TTL, between 10 ms and 1 minute). */
  start(): void {
    if (!this.index || this.timer) return;
    const every = Math.min(60_000, Math.max(10, Math.floor(this.ttlMs / 4)));
    this.timer = setInterval(() => void this.sweep(), every);
    this.timer.unref?.();
  }

  /** Cancels every interrupted task idle for the TTL; one sweep at a time. */
  sweep(): Promise<void> {
    this.scanning ??= this.expireAll()
      .catch((error: unknown) =>
        this.logger?.error('a2a-kit: expiring abandoned interrupted tasks failed', error),
      )
      .finally(() => {
        this.scanning = undefined;
      });
    return this.scanning;
  }

  /**
   * Refuses a message that would start a new task when the caller already holds
   * `maxPerCaller` interrupted tasks. The count is read from the store (its `interrupted` facet's
   * `held`, one read, else two ListTasks counts).
   * On a store whose every change this process sees (memory; SQLite while no other connection
   * wrote, `InterruptedTaskIndex.version`), it is read at most once per {@link RECOUNT_MS} per
   * caller while the caller is far from the cap: every task started on that store since the last
   * count is taken as interrupted, so the cap is never exceeded, and a refusal always rests on a
   * fresh count. Other stores (PostgreSQL) count on every new task. Undefined when nothing had to
   * be read.
   */
  admit(scope: Scope): Promise<void> | undefined {
    const key = `${scope.tenant}\u0000${scope.owner}`;
    const seen = this.counts?.get(key);
    // Read before any count: a write elsewhere after it moves the version the next admit reads.
    const version = this.counts === undefined ? undefined : this.index?.version?.();
    if (
      seen &&
      seen.version === version &&
      Date.now() - seen.at < RECOUNT_MS &&
      seen.held + seen.started < this.maxPerCaller
    ) {
      seen.started++;
      return undefined;
    }
    return this.recount(key, scope, version);
  }

  private async recount(key: string, scope: Scope, version: number | undefined): Promise<void> {
    const at = Date.now();
    let held = 0;
    if (this.index?.held) held = await this.index.held(scope);
    else {
      for (const status of INTERRUPTED_STATES) {
        const page = await this.log.store.list(scope, { status, pageSize: 1 });
        held += page.totalSize;
      }
    }
    const counts = this.counts;
    if (counts) {
      counts.delete(key); // re-inserted last: the map's order is the eviction order
      if (counts.size >= MAX_COUNTED_CALLERS) {
        const oldest = counts.keys().next();
        if (!oldest.done) counts.delete(oldest.value);
      }
      counts.set(key, { held, at, started: 1, version });
    }
    if (held < this.maxPerCaller) return;
    throw new A2AError(
      'RATE_LIMITED',
      `You hold ${held} tasks waiting for your input or authorization; the limit is ${this.maxPerCaller} (A2AServer option interrupted.maxPerCaller): answer or cancel some of them (ListTasks with status TASK_STATE_INPUT_REQUIRED) before starting new tasks`,
      // A refusal like the other RATE_LIMITED answers: HTTP 429 on every HTTP binding.
      {
        metadata: { interrupted: String(held), maxPerCaller: String(this.maxPerCaller) },
        headers: {},
      },
    );
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.scanning;
  }

  private async expireAll(): Promise<void> {
    if (!this.index) return;
    for (;;) {
      const idle = await this.index.idle(this.ttlMs, SCAN_BATCH);
      let canceled = 0;
      for (const task of idle) if (await this.expire(task)) canceled++;
      // A short batch was the last; a batch of only lost races is left for the next sweep.
      if (idle.length < SCAN_BATCH || canceled === 0 || !this.timer) return;
    }
  }

  /** Cancels one idle task unless it changed since; true when this instance wrote the cancel. */
  private async expire({ scope, taskId }: IdleInterruptedTask): Promise<boolean> {
    const record = await this.log.store.get(scope, taskId);
    if (!record || !isInterrupted(record.task.status.state)) return false;
    const { task } = record;
    const canceled = new TaskHandle(taskId, task.contextId ?? '').canceled(expiredText(this.ttlMs));
    try {
      return await this.log.append(scope, taskId, [canceled], positionOf(record));
    } catch (error) {
      if (error instanceof ConcurrencyError) return false; // answered, or another instance won
      throw error;
    }
  }
}

function positive(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0) {
    throw new Error(`${name} must be a positive number, not ${value}`);
  }
  return value;
}

/** `24 h`, `90 min`, `30 s`, `250 ms`: the largest unit that divides the duration. */
function duration(ms: number): string {
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000} h`;
  if (ms % 60_000 === 0) return `${ms / 60_000} min`;
  if (ms % 1000 === 0) return `${ms / 1000} s`;
  return `${ms} ms`;
}
