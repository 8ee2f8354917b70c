/**
 * NATS JetStream EventBus: live fan-out between server instances connected to one NATS, with a
 * JetStream stream as a replayable copy of the recent log.
 *
 * - One subject per tenant and task, `<prefix>.events.<tenant token>.<task token>` (see
 *   `subjectToken`; the tenant `''` is the token `~`), captured by the stream `<PREFIX>_EVENTS`:
 *   NATS permissions can confine an account to `<prefix>.events.<tenant token>.>`. Publishing
 *   waits for the stream's ack and carries a message id (`<tenant>.<task>:<seq>`), so a retried
 *   publish is stored once (JetStream duplicate window).
 * - Body: the StreamResponse JSON; headers `A2A-Seq` (the log seq) and `A2A-Task-Id`, and, when
 *   tracing set them (a2a-kit/otel), `A2A-Trace` (the entry's W3C trace context as a JSON object)
 *   and `A2A-Published-At` (its publish time, ms), so a subscriber on another instance continues
 *   the trace of the task's writer and measures the bus lag. An entry
 *   over the server's max payload is sent without body (`A2A-Omitted: too-large`); receivers read
 *   it from `store` (a LogSource, e.g. the PostgresTaskStore), later entries of the task waiting.
 * - Per task, entries are delivered with strictly increasing seq: older or repeated ones are
 *   dropped. After a reconnection, every subscribed task is replayed from the stream after the
 *   last seq delivered ({@link NatsEventBus.replay}), so nothing published meanwhile is missed.
 */
import {
  headers as natsHeaders,
  type NatsConnection,
  type Subscription,
} from '@nats-io/transport-node';
import {
  jetstream,
  jetstreamManager,
  type JetStreamClient,
  type JetStreamManager,
  type MsgRequest,
} from '@nats-io/jetstream';
import type { StreamResponse } from '../../core/schemas/index.js';
import { busKey } from '../bus-key.js';
import type { EventBus, LogEntry, LogListener, LogSource } from '../types.js';
import { checkPrefix, openNats, subjectToken, type NatsConnectionOptions } from './connection.js';
import { withFields } from '../../core/with-fields.js';

/** Options of {@link NatsEventBus.open}. */
export interface NatsEventBusOptions extends NatsConnectionOptions {
  /** Subject prefix of this deployment (default `a2a`); streams of two prefixes never mix. */
  prefix?: string | undefined;
  /** Where entries too large for NATS are read (normally the shared task store). */
  store?: LogSource | undefined;
  /** How long the stream keeps entries, for replays (default 1 hour). */
  maxAgeMs?: number | undefined;
  /** Largest body sent with its entry (default: the server's max payload less 4 KiB). */
  maxPayloadBytes?: number | undefined;
  logger?: Pick<Console, 'warn'> | null | undefined;
}

interface TaskSubscription {
  readonly tenant: string;
  readonly taskId: string;
  readonly subject: string;
  readonly listeners: Set<LogListener>;
  readonly sub: Subscription;
  lastSeq: number;
  chain: Promise<void>;
  pending: number;
}

const SEQ = 'A2A-Seq';
const TASK = 'A2A-Task-Id';
const OMITTED = 'A2A-Omitted';
const TRACE = 'A2A-Trace';
const PUBLISHED_AT = 'A2A-Published-At';

type Headers = { get(name: string): string } | undefined;

/** Live fan-out across every instance connected to the same NATS (JetStream on). */
export class NatsEventBus implements EventBus {
  /** The JetStream stream holding the entries. */
  readonly stream: string;
  private readonly subscriptions = new Map<string, TaskSubscription>();
  private readonly js: JetStreamClient;
  private readonly decoder = new TextDecoder();
  private readonly encoder = new TextEncoder();
  private readonly maxPayloadBytes: number;
  private closed = false;

  private constructor(
    private readonly nc: NatsConnection,
    private readonly owned: boolean,
    private readonly jsm: JetStreamManager,
    private readonly prefix: string,
    private readonly options: NatsEventBusOptions,
  ) {
    this.stream = streamName(prefix);
    this.js = jetstream(nc);
    this.maxPayloadBytes = options.maxPayloadBytes ?? nc.info!.max_payload - 4096;
    void this.watch();
  }

  /** Connects (or adopts `connection`) and makes sure the stream exists. */
  static async open(options: NatsEventBusOptions | string = {}): Promise<NatsEventBus> {
    const opts = typeof options === 'string' ? { servers: options } : options;
    const prefix = checkPrefix(opts.prefix ?? 'a2a');
    const { nc, owned } = await openNats(opts);
    try {
      const jsm = await jetstreamManager(nc);
      await ensureStream(jsm, streamName(prefix), `${prefix}.events.>`, opts.maxAgeMs ?? 3600_000);
      return new NatsEventBus(nc, owned, jsm, prefix, opts);
    } catch (error) {
      if (owned) await nc.close();
      throw error;
    }
  }

  /** The subject of the entries of a tenant's task. */
  subject(tenant: string, taskId: string): string {
    return `${this.prefix}.events.${taskTokens(tenant, taskId)}`;
  }

  async publish(tenant: string, taskId: string, entry: LogEntry): Promise<void> {
    if (this.closed) throw new Error('a2a-kit: the event bus is closed');
    const h = natsHeaders();
    h.set(SEQ, String(entry.seq));
    h.set(TASK, subjectToken(taskId));
    if (entry.trace !== undefined) {
      h.set(TRACE, JSON.stringify(entry.trace));
      if (entry.publishedAt !== undefined) h.set(PUBLISHED_AT, String(entry.publishedAt));
    }
    let body = this.encoder.encode(JSON.stringify(entry.event));
    if (body.byteLength > this.maxPayloadBytes) {
      h.set(OMITTED, 'too-large');
      body = new Uint8Array(0);
    }
    const tokens = taskTokens(tenant, taskId);
    await this.js.publish(`${this.prefix}.events.${tokens}`, body, {
      headers: h,
      msgID: `${tokens}:${entry.seq}`,
    });
  }

  async subscribe(tenant: string, taskId: string, listener: LogListener): Promise<() => void> {
    if (this.closed) throw new Error('a2a-kit: the event bus is closed');
    const key = busKey(tenant, taskId);
    let found = this.subscriptions.get(key);
    if (!found) {
      const subject = this.subject(tenant, taskId);
      const entry: TaskSubscription = {
        tenant,
        taskId,
        subject,
        listeners: new Set(),
        lastSeq: 0,
        chain: Promise.resolve(),
        pending: 0,
        sub: this.nc.subscribe(subject, {
          callback: (error, msg) => {
            if (!error) this.receive(entry, msg.headers, msg.data);
          },
        }),
      };
      found = entry;
      this.subscriptions.set(key, found);
      // The server knows of the interest once a flush returns: an entry published after
      // subscribe() resolved is delivered (EventBus contract).
      await this.nc.flush();
    }
    const task = found;
    task.listeners.add(listener);
    return () => {
      task.listeners.delete(listener);
      if (task.listeners.size === 0 && this.subscriptions.get(key) === task) {
        this.subscriptions.delete(key);
        task.sub.unsubscribe();
      }
    };
  }

  /**
   * The entries of a tenant's task after `afterSeq` that the stream still holds (its
   * `maxAgeMs`), in order: what a subscriber missed while NATS was unreachable. Entries sent
   * without body are read from `store`.
   */
  async replay(tenant: string, taskId: string, afterSeq: number): Promise<LogEntry[]> {
    const subject = this.subject(tenant, taskId);
    const last = await this.jsm.streams
      .getMessage(this.stream, { last_by_subj: subject })
      .catch(() => null);
    if (!last || seqOf(last.header) <= afterSeq) return [];
    const out: LogEntry[] = [];
    for (let at = 1; at <= last.seq;) {
      // STREAM.MSG.GET takes `next_by_subj` (nats-server 2.9+); the client types list it for
      // direct gets only.
      const next = { seq: at, next_by_subj: subject } as unknown as MsgRequest;
      const msg = await this.jsm.streams.getMessage(this.stream, next);
      if (!msg) break;
      at = msg.seq + 1;
      const seq = seqOf(msg.header);
      if (seq <= afterSeq) continue;
      const entry = await this.decode(taskId, seq, msg.header, msg.data);
      if (entry) out.push(entry);
    }
    return out;
  }

  /** Number of tasks with listeners (for tests: nothing may leak). */
  get activeTasks(): number {
    return this.subscriptions.size;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const task of this.subscriptions.values()) task.sub.unsubscribe();
    this.subscriptions.clear();
    if (this.owned) await this.nc.close();
  }

  /** After each reconnection, replays what every subscribed task may have missed. */
  private async watch(): Promise<void> {
    for await (const status of this.nc.status()) {
      if (status.type !== 'reconnect') continue;
      for (const task of this.subscriptions.values()) {
        this.later(task, async () => this.replay(task.tenant, task.taskId, task.lastSeq));
      }
    }
  }

  private receive(task: TaskSubscription, h: Headers, data: Uint8Array): void {
    const seq = seqOf(h);
    if (seq <= 0) return; // not ours
    if (task.pending === 0 && !h?.get(OMITTED)) {
      const entry = this.parse(seq, h, data);
      if (entry) this.emit(task, entry);
      return;
    }
    this.later(task, async () => {
      const entry = await this.decode(task.taskId, seq, h, data);
      return entry ? [entry] : [];
    });
  }

  private async decode(
    taskId: string,
    seq: number,
    h: Headers,
    data: Uint8Array,
  ): Promise<LogEntry | undefined> {
    if (!h?.get(OMITTED)) return this.parse(seq, h, data);
    if (this.options.store) {
      const entry = await this.options.store.entryAt(taskId, seq);
      return entry && withFields(entry, tracing(h));
    }
    this.options.logger?.warn(
      'a2a-kit: an event too large for NATS was skipped (no `store` given to NatsEventBus); streams catch up at the next event',
    );
    return undefined;
  }

  private parse(seq: number, h: Headers, data: Uint8Array): LogEntry | undefined {
    let event: StreamResponse;
    try {
      event = JSON.parse(this.decoder.decode(data)) as StreamResponse;
    } catch {
      return undefined;
    }
    return h?.get(TRACE) ? { seq, event, ...tracing(h) } : { seq, event };
  }

  /** Queues deliveries behind the earlier ones of the same task (order per task holds). */
  private later(task: TaskSubscription, load: () => Promise<LogEntry[]>): void {
    task.pending++;
    task.chain = task.chain
      .then(load)
      .then((entries) => {
        for (const entry of entries) this.emit(task, entry);
      })
      .catch((error: unknown) =>
        this.options.logger?.warn('a2a-kit: event bus read failed:', error),
      )
      .finally(() => {
        task.pending--;
      });
  }

  private emit(task: TaskSubscription, entry: LogEntry): void {
    if (entry.seq <= task.lastSeq) return;
    task.lastSeq = entry.seq;
    for (const listener of [...task.listeners]) {
      try {
        listener(entry);
      } catch {
        // A failing listener must not stop delivery to the others (spec §3.5.2).
      }
    }
  }
}

/** `<tenant token>.<task token>`: the end of a task's subject (`~` for the tenant `''`). */
function taskTokens(tenant: string, taskId: string): string {
  return `${subjectToken(tenant)}.${subjectToken(taskId)}`;
}

/** `a2a.x` → `A2A_X_EVENTS` (stream names may not hold dots). */
function streamName(prefix: string): string {
  return `${prefix.replace(/\./g, '_').toUpperCase()}_EVENTS`;
}

/** The trace fields of a message, when its headers carry well-formed ones. */
function tracing(h: Headers): Pick<LogEntry, 'trace' | 'publishedAt'> {
  const raw = h?.get(TRACE);
  if (!raw) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return {};
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return {};
  const carried: Record<string, string> = {};
  for (const [k, v] of Object.entries(parsed)) if (typeof v === 'string') carried[k] = v;
  const at = Number(h?.get(PUBLISHED_AT) || NaN);
  return Number.isFinite(at) ? { trace: carried, publishedAt: at } : { trace: carried };
}

function seqOf(h: Headers): number {
  const value = Number(h?.get(SEQ) ?? '');
  return Number.isSafeInteger(value) ? value : 0;
}

/** Creates the stream unless it exists (its settings are then left as they are). */
async function ensureStream(
  jsm: JetStreamManager,
  name: string,
  subjects: string,
  maxAgeMs: number,
): Promise<void> {
  try {
    await jsm.streams.info(name);
  } catch {
    await jsm.streams.add({
      name,
      subjects: [subjects],
      max_age: maxAgeMs * 1_000_000, // nanoseconds
      duplicate_window: Math.min(maxAgeMs, 120_000) * 1_000_000,
    });
  }
}
