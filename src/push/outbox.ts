/**
 * The durable push outbox: every notification is written here before anything is sent, so a
 * restart loses nothing pending. Deliveries of one (task, config) pair go out strictly in log
 * order: only the oldest pending delivery of a pair can be claimed, so a retried delivery holds
 * back the ones after it. Claims carry a lease; a worker that dies leaves its claims to expire and
 * another worker (or the restarted process) takes them over. Implementations:
 * `MemoryTaskStore#pushOutbox()`, `SqliteTaskStore#pushOutbox()`, `PostgresTaskStore#pushOutbox()`.
 * Runtime-neutral: types only.
 */
import type { Scope } from '../stores/types.js';

/** A delivery to write: one log entry of one task for one push config. */
export interface NewDelivery {
  /** Unique id of the delivery (stable across its attempts). */
  readonly id: string;
  readonly scope: Scope;
  readonly taskId: string;
  readonly configId: string;
  /** The log sequence number of the event; orders the deliveries of a (task, config) pair. */
  readonly seq: number;
  /** The exact request body: StreamResponse JSON (UTF-8 text). */
  readonly body: string;
}

/** Where a delivery is in its life: waiting (or in flight under a lease), or given up. */
export type DeliveryState = 'pending' | 'failed';

/** A delivery claimed by one worker under a lease. */
export interface ClaimedDelivery extends NewDelivery {
  /** Attempts already made before this one. */
  readonly attempt: number;
  /** The claim token; complete/retry/fail/release only act while it is still current. */
  readonly claim: string;
}

/** A delivery as stored, for inspection and tests. */
export interface StoredDelivery extends NewDelivery {
  readonly attempt: number;
  readonly state: DeliveryState;
  /** Milliseconds since the epoch (store clock) when it may next be attempted. */
  readonly nextAttemptAt: number;
  readonly lastError?: string | undefined;
}

/** The claim a worker holds on a delivery. */
export type ClaimRef = Pick<ClaimedDelivery, 'id' | 'claim'>;

/** Durable queue of push deliveries with per-(task, config) ordering and leased claims. */
export interface PushOutbox {
  /** Writes deliveries durably; a repeated (taskId, configId, seq) is ignored. */
  enqueue(deliveries: readonly NewDelivery[]): Promise<void>;
  /**
   * Claims up to `limit` due deliveries for `leaseMs`: pending, due, not under a live lease, and
   * the oldest pending one of their (task, config) pair.
   */
  claim(limit: number, leaseMs: number): Promise<ClaimedDelivery[]>;
  /** Delivered (or no longer deliverable because its config is gone): the delivery is removed. */
  complete(ref: ClaimRef): Promise<void>;
  /** The attempt failed and may be retried after `delayMs`; counts the attempt. */
  retry(ref: ClaimRef, delayMs: number, error: string): Promise<void>;
  /** Gives up: counts the attempt and keeps the delivery as `failed` (deleted with its task). */
  fail(ref: ClaimRef, error: string): Promise<void>;
  /** Gives a claim back without counting an attempt (a worker shutting down). */
  release(ref: ClaimRef): Promise<void>;
  /** The deliveries of one task, by config then seq (inspection, tests). */
  list(taskId: string): Promise<StoredDelivery[]>;
}

/** A store that keeps a push outbox next to its tasks. */
export interface PushOutboxProvider {
  pushOutbox(): PushOutbox;
}

/** True when a store offers a push outbox. */
export function hasPushOutbox(store: object): store is PushOutboxProvider {
  return typeof (store as Partial<PushOutboxProvider>).pushOutbox === 'function';
}
