/**
 * PostgreSQL EventBus: LISTEN/NOTIFY on one channel per schema (`<schema>_events`), so instances
 * sharing a PostgreSQL store fan events out to each other with no other server to run.
 *
 * - Payload `{"taskId","seq","event"}`, plus `"tenant"` (the task's tenant, left out when `''`),
 *   `"trace"` and `"at"` (the entry's `trace` and `publishedAt`, when tracing set them); when that exceeds `maxPayloadBytes` (PostgreSQL refuses
 *   payloads of 8,000 bytes and more) the event is left out and the receiving bus reads the entry
 *   from the store (`store` option). Later entries of that task wait for it, so
 *   delivery order per task always holds.
 * - A subscriber hears the entries of its own tenant and task only.
 * - Per task, entries are delivered with strictly increasing seq: an older or repeated one is
 *   dropped (the log has it; a stream that sees a gap reads the log).
 * - When the listening connection drops, it is re-established with backoff; then the bus delivers
 *   the last log entry of every subscribed task, so a subscriber that missed entries sees a seq
 *   gap and catches up from the log. Without `store`, it catches up at the task's next entry.
 */
import { busKey } from '../bus-key.js';
import type { EventBus, LogEntry, LogListener, LogSource } from '../types.js';
import { connect, type Connection, type PostgresConnectionOptions } from './connection.js';
import { Listener } from './listener.js';
import { statementName } from './statements.js';
import { withFields } from '../../core/with-fields.js';

/** Options of {@link PostgresEventBus}. */
export interface PostgresEventBusOptions extends PostgresConnectionOptions {
  /**
   * Where entries too large for a notification, and missed ones after a reconnection, are read
   * (normally the PostgresTaskStore on the same schema). Strongly recommended.
   */
  store?: LogSource;
  /** Largest payload sent with its event (default 7,000 bytes; PostgreSQL's limit is 8,000). */
  maxPayloadBytes?: number;
  /** Longest wait of `subscribe()` for the LISTEN connection (default 10 s). */
  subscribeTimeoutMs?: number;
  /** Period of the liveness query on the listening connection (default 15 s). */
  heartbeatMs?: number;
  /** First and maximum delay between reconnection attempts (default 100 ms and 5 s). */
  backoffMs?: { initial: number; max: number };
}

interface Subscription {
  readonly taskId: string;
  readonly listeners: Set<LogListener>;
  lastSeq: number;
  /** Deliveries waiting for a read from the store, in arrival order. */
  chain: Promise<void>;
  pending: number;
}

interface Notice {
  tenant?: string;
  taskId: string;
  seq: number;
  event?: LogEntry['event'];
  trace?: Record<string, string>;
  at?: number;
}

/** Live fan-out across every instance connected to the same PostgreSQL schema. */
export class PostgresEventBus implements EventBus {
  /** The NOTIFY channel: `<schema>_events`. */
  readonly channel: string;
  private readonly conn: Connection;
  private readonly listener: Listener;
  private readonly subscriptions = new Map<string, Subscription>();
  private readonly store: LogSource | undefined;
  private readonly maxPayloadBytes: number;
  private readonly subscribeTimeoutMs: number;
  private warnedNoStore = false;
  private closed = false;

  constructor(options: PostgresEventBusOptions | string) {
    const opts = typeof options === 'string' ? { connectionString: options } : options;
    this.conn = connect(opts);
    this.channel = `${this.conn.schema}_events`;
    this.store = opts.store;
    this.maxPayloadBytes = opts.maxPayloadBytes ?? 7_000;
    this.subscribeTimeoutMs = opts.subscribeTimeoutMs ?? 10_000;
    this.listener = new Listener({
      connection: { ...this.conn.pool.options, keepAlive: true },
      channel: this.channel,
      onPayload: (payload) => this.receive(payload),
      onReconnect: () => this.catchUp(),
      logger: this.conn.logger,
      ...(opts.heartbeatMs !== undefined ? { heartbeatMs: opts.heartbeatMs } : {}),
      ...(opts.backoffMs ? { backoffMs: opts.backoffMs } : {}),
    });
  }

  /** True while the LISTEN connection is up. */
  get listening(): boolean {
    return this.listener.listening;
  }

  async publish(tenant: string, taskId: string, entry: LogEntry): Promise<void> {
    if (this.closed) throw new Error('a2a-kit: the event bus is closed');
    const { seq, event, trace, publishedAt: at } = entry;
    const tenantOf = tenant === '' ? undefined : tenant;
    let payload = JSON.stringify(
      trace
        ? { tenant: tenantOf, taskId, seq, event, trace, at }
        : { tenant: tenantOf, taskId, seq, event },
    );
    // Cheap length test first: UTF-8 never takes more than 3 bytes per UTF-16 unit.
    if (payload.length * 3 > this.maxPayloadBytes) {
      if (Buffer.byteLength(payload) > this.maxPayloadBytes) {
        payload = JSON.stringify(
          trace ? { tenant: tenantOf, taskId, seq, trace, at } : { tenant: tenantOf, taskId, seq },
        );
      }
    }
    await this.conn.pool.query({
      name: statementName(this.conn.schema, 'notify'),
      text: 'SELECT pg_notify($1, $2)',
      values: [this.channel, payload],
    });
  }

  async subscribe(tenant: string, taskId: string, listener: LogListener): Promise<() => void> {
    await this.whenListening();
    const key = busKey(tenant, taskId);
    let sub = this.subscriptions.get(key);
    if (!sub) {
      sub = { taskId, listeners: new Set(), lastSeq: 0, chain: Promise.resolve(), pending: 0 };
      this.subscriptions.set(key, sub);
    }
    const subscription = sub;
    subscription.listeners.add(listener);
    return () => {
      subscription.listeners.delete(listener);
      if (subscription.listeners.size === 0 && this.subscriptions.get(key) === subscription) {
        this.subscriptions.delete(key);
      }
    };
  }

  /** Number of tasks with listeners (for tests: nothing may leak). */
  get activeTasks(): number {
    return this.subscriptions.size;
  }

  /** Stops listening; ends the pool if this bus created it. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.subscriptions.clear();
    await this.listener.close();
    if (this.conn.owned) await this.conn.pool.end();
  }

  private async whenListening(): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`a2a-kit: could not LISTEN on ${this.channel} in time`)),
        this.subscribeTimeoutMs,
      );
    });
    try {
      await Promise.race([this.listener.ready(), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  private receive(payload: string): void {
    let notice: unknown;
    try {
      notice = JSON.parse(payload);
    } catch {
      return; // not ours
    }
    if (!isNotice(notice)) return;
    const sub = this.subscriptions.get(busKey(notice.tenant ?? '', notice.taskId));
    if (!sub) return;
    const { taskId, seq, event } = notice;
    const traced = tracing(notice);
    if (event && sub.pending === 0) this.emit(sub, { seq, event, ...traced });
    else {
      this.later(sub, async () => {
        const entry = event ? { seq, event } : await this.read(taskId, seq);
        return entry && withFields(entry, traced);
      });
    }
  }

  /** After a reconnection: the tail of each subscribed task, to reveal gaps to subscribers. */
  private catchUp(): void {
    const store = this.store;
    for (const sub of this.subscriptions.values()) {
      if (store) this.later(sub, () => store.lastEntry(sub.taskId));
    }
  }

  private read(taskId: string, seq: number): Promise<LogEntry | undefined> {
    if (this.store) return this.store.entryAt(taskId, seq);
    if (!this.warnedNoStore) {
      this.warnedNoStore = true;
      this.conn.logger?.warn(
        'a2a-kit: an event too large for NOTIFY was skipped (no `store` given to PostgresEventBus); streams catch up at the next event',
      );
    }
    return Promise.resolve(undefined);
  }

  /** Queues a delivery behind the earlier ones of the same task. */
  private later(sub: Subscription, load: () => Promise<LogEntry | undefined>): void {
    sub.pending++;
    sub.chain = sub.chain
      .then(load)
      .then((entry) => entry && this.emit(sub, entry))
      .catch((error: unknown) => this.conn.logger?.warn('a2a-kit: event bus read failed:', error))
      .finally(() => {
        sub.pending--;
      });
  }

  private emit(sub: Subscription, entry: LogEntry): void {
    if (entry.seq <= sub.lastSeq) return;
    sub.lastSeq = entry.seq;
    for (const listener of [...sub.listeners]) {
      try {
        listener(entry);
      } catch {
        // A failing listener must not stop delivery to the others (spec §3.5.2).
      }
    }
  }
}

/** The trace fields of a notice, when it carries well-formed ones. */
function tracing(notice: Notice): Pick<LogEntry, 'trace' | 'publishedAt'> {
  const { trace, at } = notice;
  if (typeof trace !== 'object' || trace === null) return {};
  const carried: Record<string, string> = {};
  for (const [k, v] of Object.entries(trace)) if (typeof v === 'string') carried[k] = v;
  return typeof at === 'number' ? { trace: carried, publishedAt: at } : { trace: carried };
}

function isNotice(value: unknown): value is Notice {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Partial<Notice>;
  return (
    typeof v.taskId === 'string' &&
    Number.isSafeInteger(v.seq) &&
    (v.tenant === undefined || typeof v.tenant === 'string')
  );
}
