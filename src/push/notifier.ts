/**
 * `createPushNotifier()`: the PushNotifier A2AServer calls after every append. It turns the task's
 * status and artifact updates into StreamResponse bodies, writes one delivery per config to the
 * durable outbox (before anything is sent), and runs the worker that delivers them: signed,
 * SSRF-guarded, retried with backoff, in order per (task, config). Which payloads are pushed:
 * `statusUpdate` and `artifactUpdate` by default ("task updates", spec §4.3.3); the creation
 * snapshot (`task`, SUBMITTED, which the client already has from SendMessage) and the user's own
 * `message` entries can be added with `events`.
 */
import { newId } from '../core/ids.js';
import type { PushNotifier } from '../server/push-configs.js';
import type {
  LogEntry,
  NewDelivery,
  PushConfigStore,
  PushOutbox,
  Scope,
  StoredPushConfig,
  TaskStore,
} from '../stores/types.js';
import { DEFAULT_PUSH_RETRY, type RetryPolicy } from './delivery.js';
import type { PushSigner } from './signing.js';
import { WebhookGuard, type Resolver } from './ssrf.js';
import { sinkTransport, type PushSink } from './sinks.js';
import { fetchTransport, guardedTransport, type PushTransport } from './transport.js';
import {
  PushWorker,
  type DeliveryInstrument,
  type PushDeliveryOutcome,
  type PushRequestSigner,
} from './worker.js';

/** The StreamResponse members a notifier can push. */
export type PushEventKind = 'task' | 'message' | 'statusUpdate' | 'artifactUpdate';

/** Options of {@link createPushNotifier}. */
export interface PushNotifierOptions {
  /**
   * A task store keeping push configs and an outbox (its `facets`: Memory/Sqlite/PostgresTaskStore).
   * When the server uses the same store, deliveries are enqueued in the append's transaction.
   */
  readonly store?: TaskStore | undefined;
  /** The outbox (default `store.facets.pushOutbox`). */
  readonly outbox?: PushOutbox | undefined;
  /** Where configs are read at delivery time (default `store.facets.pushConfigs`). */
  readonly configs?: PushConfigStore | undefined;
  /** Signs every delivery (X-A2A-Notification-Signature); publish `signer.jwks()`. */
  readonly signer?: PushSigner | undefined;
  /** Also signs every delivery as an HTTP message (`didPushSigner(identity)` of `a2a-kit/did`). */
  readonly requestSigner?: PushRequestSigner | undefined;
  /** Hosts exempt from the SSRF guard, `host` or `host:port` (http allowed for them). */
  readonly allowHosts?: readonly string[] | undefined;
  /** Name resolution of the SSRF guard (default `dns.lookup`; inject in tests). */
  readonly resolver?: Resolver | undefined;
  /** Send through this fetch instead of the guarded node:http transport (weaker rebinding guard). */
  readonly fetch?: typeof fetch | undefined;
  /** Full control of sending (tests, proxies); the URL checks still apply. */
  readonly transport?: PushTransport | undefined;
  /**
   * Targets besides webhooks, by URL scheme: `natsPushSink(…)` from `a2a-kit/stores/nats`
   * delivers to `nats://subject` configs (same outbox, order, retries and signing).
   */
  readonly sinks?: readonly PushSink[] | undefined;
  /** Per-request timeout; default 10 s (spec §4.3.3: 10-30 s). */
  readonly timeoutMs?: number | undefined;
  readonly retry?: Partial<RetryPolicy> | undefined;
  /** Payloads pushed; default `['statusUpdate', 'artifactUpdate']`. */
  readonly events?: readonly PushEventKind[] | undefined;
  /** Deliveries in flight at once; default 8. */
  readonly concurrency?: number | undefined;
  /** How often the outbox is checked for work from elsewhere; default 1 s. */
  readonly pollIntervalMs?: number | undefined;
  /** How long a claimed delivery is reserved; default timeoutMs + 30 s. */
  readonly leaseMs?: number | undefined;
  /** Called with the outcome of every attempt. */
  readonly onDelivery?: ((outcome: PushDeliveryOutcome) => void) | undefined;
  /** One line per outcome (never credentials); default `console`; `null` for silence. */
  readonly logger?: Pick<Console, 'info' | 'warn'> | null | undefined;
  /**
   * Runs around every delivery attempt: tracing (`a2a-kit/otel`'s `pushTelemetry`) opens the
   * delivery's span there and adds its `traceparent`. Default: the trace context the delivery
   * was enqueued with (when tracing recorded one) is sent as is.
   */
  readonly instrument?: DeliveryInstrument | undefined;
  /** Start delivering at once (default true). */
  readonly start?: boolean | undefined;
}

/** Counts since the notifier started. */
export interface PushMetrics {
  enqueued: number;
  delivered: number;
  retried: number;
  failed: number;
  dropped: number;
  inFlight: number;
}

/** A running push notifier: pass it to `new A2AServer({ push: { notifier } })`. */
export interface PushNotifierHandle extends PushNotifier {
  validateUrl(url: string): Promise<void>;
  close(): Promise<void>;
  /** Starts the worker when created with `start: false`. */
  start(): void;
  metrics(): PushMetrics;
  readonly signer: PushSigner | undefined;
}

/** Creates the notifier and (unless `start: false`) starts delivering what the outbox holds. */
export function createPushNotifier(options: PushNotifierOptions): PushNotifierHandle {
  const { outbox, configs } = storage(options);
  const sinks = options.sinks ?? [];
  const guard = new WebhookGuard({
    allowHosts: options.allowHosts,
    resolver: options.resolver,
    schemes: new Map(sinks.map((s) => [s.protocol, (url: string) => s.refusal(url)])),
  });
  let owned: ReturnType<typeof guardedTransport> | undefined;
  const transport = sinkTransport(
    sinks,
    options.transport ??
      (options.fetch ? fetchTransport(options.fetch, guard) : (owned = guardedTransport(guard))),
  );
  const kinds = new Set<PushEventKind>(options.events ?? ['statusUpdate', 'artifactUpdate']);
  const timeoutMs = options.timeoutMs ?? 10_000;
  const logger = options.logger === null ? undefined : (options.logger ?? console);
  const counts = { enqueued: 0, delivered: 0, retried: 0, failed: 0, dropped: 0 };
  const worker = new PushWorker({
    outbox,
    configs,
    guard,
    transport,
    signer: options.signer,
    requestSigner: options.requestSigner,
    retry: { ...DEFAULT_PUSH_RETRY, ...options.retry },
    timeoutMs,
    leaseMs: options.leaseMs ?? timeoutMs + 30_000,
    concurrency: Math.max(1, options.concurrency ?? 8),
    pollIntervalMs: options.pollIntervalMs ?? 1_000,
    report: (outcome) => {
      counts[outcome.outcome]++;
      logOutcome(logger, outcome);
      options.onDelivery?.(outcome);
    },
    warn: (line) => logger?.warn(line),
    instrument: options.instrument,
  });
  // Per task, enqueues run one after another, so deliveries are written in log order.
  const chains = new Map<string, Promise<void>>();

  async function enqueue(scope: Scope, taskId: string, entries: readonly LogEntry[]) {
    const targets: StoredPushConfig[] = [];
    for (let afterId: string | undefined; ;) {
      const page = await configs.listPushConfigs(scope, taskId, {
        limit: 100,
        ...(afterId !== undefined ? { afterId } : {}),
      });
      targets.push(...page);
      if (page.length < 100) break;
      afterId = page[page.length - 1]?.id;
    }
    if (targets.length === 0) return;
    const deliveries: NewDelivery[] = [];
    for (const entry of entries) {
      const body = JSON.stringify(entry.event);
      for (const config of targets) {
        const { seq, trace } = entry;
        const id = newId();
        deliveries.push({
          id,
          scope,
          taskId,
          configId: config.id,
          seq,
          body,
          ...(trace && { trace }),
        });
      }
    }
    await outbox.enqueue(deliveries);
    counts.enqueued += deliveries.length;
    worker.wake();
  }

  const pushes = (event: LogEntry['event']) => kinds.has(payloadKind(event));
  if (options.start !== false) worker.start();
  return {
    signer: options.signer,
    validateUrl: (url) => guard.validate(url),
    fanout: { outbox, configs, pushes, wake: () => worker.wake() },
    notify(scope, taskId, entries) {
      const chosen = entries.filter((e) => pushes(e.event));
      if (chosen.length === 0) return Promise.resolve();
      const previous = chains.get(taskId) ?? Promise.resolve();
      const next = previous.then(() => enqueue(scope, taskId, chosen));
      const settled = next.catch(() => undefined);
      chains.set(taskId, settled);
      void settled.then(() => {
        if (chains.get(taskId) === settled) chains.delete(taskId);
      });
      return next;
    },
    start: () => worker.start(),
    async close() {
      await Promise.all([...chains.values()]);
      await worker.close();
      owned?.close();
      for (const sink of sinks) await sink.close?.();
    },
    metrics: () => ({ ...counts, inFlight: worker.inFlight }),
  };
}

function storage(options: PushNotifierOptions): { outbox: PushOutbox; configs: PushConfigStore } {
  const facets = options.store?.facets;
  const outbox = options.outbox ?? facets?.pushOutbox;
  const configs = options.configs ?? facets?.pushConfigs;
  if (!outbox || !configs) {
    throw new TypeError('createPushNotifier needs a store with push configs and an outbox');
  }
  return { outbox, configs };
}

function payloadKind(event: LogEntry['event']): PushEventKind {
  if ('statusUpdate' in event) return 'statusUpdate';
  if ('artifactUpdate' in event) return 'artifactUpdate';
  return 'task' in event ? 'task' : 'message';
}

function logOutcome(
  logger: Pick<Console, 'info' | 'warn'> | undefined,
  o: PushDeliveryOutcome,
): void {
  if (!logger) return;
  const parts = [
    `a2a-kit push: ${o.outcome}`,
    `task=${o.taskId}`,
    `config=${o.configId}`,
    `seq=${o.seq}`,
    `attempt=${o.attempt}`,
    ...(o.status !== undefined ? [`status=${o.status}`] : []),
    ...(o.url ? [`url=${o.url}`] : []),
    ...(o.retryInMs !== undefined ? [`retry_in=${o.retryInMs}ms`] : []),
    `took=${o.durationMs}ms`,
    ...(o.error ? [`error="${o.error}"`] : []),
  ];
  (o.outcome === 'failed' ? logger.warn : logger.info).call(logger, parts.join(' '));
}
