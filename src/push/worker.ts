/**
 * The delivery loop: claims due deliveries from the outbox (at most `concurrency` in flight),
 * sends each to its config's URL, and records the outcome (complete, retry with backoff, fail).
 * It wakes when deliveries are enqueued here, when one finishes (the next of its pair becomes
 * due), when a retry is due, and on a poll interval (work enqueued by other instances).
 */
import { pushPayload } from './payloads.js';
import type { PushConfigStore, TraceCarrier } from '../stores/types.js';
import {
  backoffDelay,
  deliveryHeaders,
  judge,
  redactUrl,
  type RetryPolicy,
  type Verdict,
} from './delivery.js';
import type { ClaimedDelivery, PushOutbox } from '../stores/types.js';
import type { PushSigner } from './signing.js';
import { bodyWithoutTrajectory } from '../core/trajectory.js';
import { WebhookRefused, type WebhookGuard } from './ssrf.js';
import { TransportFailure, type PushResponse, type PushTransport } from './transport.js';
import { withFields } from '../core/with-fields.js';

/** What became of one delivery attempt. */
export interface PushDeliveryOutcome {
  /** delivered; retried (will be tried again); failed (given up); dropped (config deleted). */
  readonly outcome: 'delivered' | 'retried' | 'failed' | 'dropped';
  readonly deliveryId: string;
  readonly taskId: string;
  readonly configId: string;
  readonly seq: number;
  /** This attempt's number, 1 for the first. */
  readonly attempt: number;
  /** The webhook's URL without query or credentials. */
  readonly url?: string | undefined;
  readonly status?: number | undefined;
  readonly error?: string | undefined;
  /** For `retried`: milliseconds until the next attempt. */
  readonly retryInMs?: number | undefined;
  readonly durationMs: number;
}

/** One delivery attempt, as a {@link DeliveryInstrument} sees it (no body, no credentials). */
export interface DeliveryAttempt {
  readonly deliveryId: string;
  readonly taskId: string;
  readonly configId: string;
  readonly seq: number;
  /** 1 for the first attempt. */
  readonly attempt: number;
  /** The webhook's URL without query or credentials. */
  readonly url: string;
  /** The trace context the delivery was enqueued with (NewDelivery.trace). */
  readonly trace: TraceCarrier | undefined;
}

/**
 * Runs around each delivery attempt (tracing): `send(headers)` makes the request with these
 * extra headers (`traceparent`, …) and resolves to the HTTP status, or throws what failed.
 * Without one, the delivery's own trace context is sent as is.
 */
export type DeliveryInstrument = (
  attempt: DeliveryAttempt,
  send: (headers: Readonly<Record<string, string>>) => Promise<number>,
) => Promise<number>;

/** The instrument used when none is given: the enqueued trace context travels as is. */
const passTrace: DeliveryInstrument = (attempt, send) => send(attempt.trace ?? {});

/**
 * Signs one delivery over its HTTP message (did:wba request signatures, `a2a-kit/did`): returns
 * headers to add next to the JWT signature (`Signature`, `Signature-Input`, `Content-Digest`).
 */
export type PushRequestSigner = (request: {
  readonly method: 'POST';
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Uint8Array;
}) => Promise<Readonly<Record<string, string>>>;

/** Everything the worker needs. */
export interface PushWorkerOptions {
  readonly outbox: PushOutbox;
  readonly configs: PushConfigStore;
  readonly guard: WebhookGuard;
  readonly transport: PushTransport;
  readonly signer: PushSigner | undefined;
  readonly requestSigner?: PushRequestSigner | undefined;
  readonly retry: RetryPolicy;
  readonly timeoutMs: number;
  readonly leaseMs: number;
  readonly concurrency: number;
  readonly pollIntervalMs: number;
  readonly report: (outcome: PushDeliveryOutcome) => void;
  readonly warn: (message: string) => void;
  readonly instrument?: DeliveryInstrument | undefined;
}

/** Runs deliveries until closed. */
export class PushWorker {
  private readonly inflight = new Map<string, { abort: AbortController; done: Promise<void> }>();
  private running = false;
  private ticking: Promise<void> | undefined;
  private again = false;
  private poll: ReturnType<typeof setInterval> | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private timerAt = Number.POSITIVE_INFINITY;
  private wakeTimes: number[] = [];

  constructor(private readonly o: PushWorkerOptions) {}

  /** Starts the loop (picks up what a previous run left in the outbox). */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.poll = setInterval(() => this.wake(), this.o.pollIntervalMs);
    this.poll.unref?.();
    this.wake();
  }

  /** Looks for due deliveries now. */
  wake(): void {
    if (!this.running) return;
    if (this.ticking) {
      this.again = true;
      return;
    }
    this.ticking = this.tick().finally(() => {
      this.ticking = undefined;
      if (this.again) {
        this.again = false;
        this.wake();
      }
    });
  }

  /** Deliveries being sent right now. */
  get inFlight(): number {
    return this.inflight.size;
  }

  /** Stops claiming, aborts requests in flight (their claims are given back) and waits. */
  async close(): Promise<void> {
    this.running = false;
    clearInterval(this.poll);
    clearTimeout(this.timer);
    for (const { abort } of this.inflight.values()) abort.abort();
    await this.ticking;
    await Promise.all([...this.inflight.values()].map((d) => d.done));
  }

  private async tick(): Promise<void> {
    const free = this.o.concurrency - this.inflight.size;
    if (free <= 0) return;
    let claimed: ClaimedDelivery[];
    try {
      claimed = await this.o.outbox.claim(free, this.o.leaseMs);
    } catch (error) {
      this.o.warn(`a2a-kit push: cannot claim deliveries: ${message(error)}`);
      return;
    }
    for (const delivery of claimed) {
      if (!this.running || this.inflight.has(delivery.id)) {
        await this.o.outbox.release(delivery).catch(() => undefined);
        continue;
      }
      const abort = new AbortController();
      const done = this.attempt(delivery, abort.signal)
        .catch((error: unknown) => {
          // The outbox could not record the outcome: the lease expires and it is tried again.
          this.o.warn(`a2a-kit push: delivery ${delivery.id} not recorded: ${message(error)}`);
        })
        .finally(() => {
          this.inflight.delete(delivery.id);
          this.wake();
        });
      this.inflight.set(delivery.id, { abort, done });
    }
    if (claimed.length === free) this.again = true;
  }

  private async attempt(d: ClaimedDelivery, signal: AbortSignal): Promise<void> {
    const started = Date.now();
    const base = {
      deliveryId: d.id,
      taskId: d.taskId,
      configId: d.configId,
      seq: d.seq,
      attempt: d.attempt + 1,
    };
    const config = await this.o.configs.getPushConfig(d.scope, d.taskId, d.configId);
    if (!config) {
      // spec §3.1.10: a deleted config (or task) gets no further deliveries.
      await this.o.outbox.complete(d);
      this.o.report(
        withFields(base, { outcome: 'dropped', error: 'config deleted', durationMs: 0 }),
      );
      return;
    }
    const url = redactUrl(config.url);
    let verdict: Verdict;
    let status: number | undefined;
    try {
      const target = this.o.guard.check(config.url);
      // A webhook activates no extension: trajectory steps never leave in a push (spec §4.6).
      // A config registered over 0.3 gets 0.3 payloads (docs/interop.md).
      const payload = pushPayload(config, bodyWithoutTrajectory(d.body));
      const body = new TextEncoder().encode(payload.body);
      const signature = await this.o.signer?.sign({
        body,
        taskId: d.taskId,
        audience: config.url,
      });
      const headers = deliveryHeaders(config, d.id, signature, payload.contentType);
      if (this.o.requestSigner) {
        const signed = await this.o.requestSigner({
          method: 'POST',
          url: config.url,
          headers,
          body,
        });
        for (const [name, value] of Object.entries(signed)) headers[name.toLowerCase()] = value;
      }
      let response: PushResponse | undefined;
      const send = async (extra: Readonly<Record<string, string>>): Promise<number> => {
        // The trace headers never replace the delivery's own (credentials, signature).
        for (const [name, value] of Object.entries(extra)) headers[name.toLowerCase()] ??= value;
        response = await this.o.transport({
          url: target,
          headers,
          body,
          timeoutMs: this.o.timeoutMs,
          signal,
        });
        return response.status;
      };
      const attempt = withFields(base, { url, trace: d.trace });
      await (this.o.instrument ?? passTrace)(attempt, send);
      if (response === undefined) throw new Error('the delivery instrument did not send');
      status = response.status;
      verdict = judge(response, this.o.retry.maxDelayMs);
    } catch (error) {
      if (signal.aborted) {
        await this.o.outbox.release(d); // shutting down: not an attempt
        return;
      }
      const permanent =
        error instanceof WebhookRefused ||
        (error instanceof TransportFailure && error.kind === 'invalid');
      verdict = { kind: permanent ? 'fail' : 'retry', error: message(error) };
    }
    const done = withFields(base, { url, status, durationMs: Date.now() - started });
    if (verdict.kind === 'delivered') {
      await this.o.outbox.complete(d);
      this.o.report(withFields(done, { outcome: 'delivered' }));
    } else if (verdict.kind === 'retry' && base.attempt < this.o.retry.maxAttempts) {
      const delay = verdict.retryAfterMs ?? backoffDelay(base.attempt, this.o.retry);
      await this.o.outbox.retry(d, delay, verdict.error);
      this.wakeIn(delay);
      this.o.report(
        withFields(done, { outcome: 'retried', error: verdict.error, retryInMs: delay }),
      );
    } else {
      const error =
        verdict.kind === 'retry'
          ? `gave up after ${base.attempt} attempts: ${verdict.error}`
          : verdict.error;
      await this.o.outbox.fail(d, error);
      this.o.report(withFields(done, { outcome: 'failed', error }));
    }
  }

  /** Wakes the loop when a retry becomes due (one timer, set for the earliest pending time). */
  private wakeIn(delayMs: number): void {
    this.wakeTimes.push(Date.now() + delayMs);
    this.arm();
  }

  private arm(): void {
    if (!this.running || this.wakeTimes.length === 0) return;
    const next = Math.min(...this.wakeTimes);
    if (this.timer !== undefined && this.timerAt <= next) return;
    clearTimeout(this.timer);
    this.timerAt = next;
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        const now = Date.now();
        this.wakeTimes = this.wakeTimes.filter((t) => t > now);
        this.wake();
        this.arm();
      },
      Math.max(0, next - Date.now()) + 5,
    );
    this.timer.unref?.();
  }
}

function message(error: unknown): string {
  if (error instanceof TransportFailure) return error.message;
  return error instanceof Error ? error.message : String(error);
}
