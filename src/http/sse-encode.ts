/**
 * Server-Sent Events encoding of a server stream (spec §9.4.2, §11.7): one event per
 * StreamResponse, `id:` = the event's log sequence when known, a comment line while idle so
 * proxies keep the connection, and a binding-specific last frame when the stream fails.
 */
import { nextReady, type ReadyIterator } from '../core/ready-iterator.js';
import type { StreamItem } from '../core/service.js';

/** Response headers of every SSE reply (`X-Accel-Buffering: no` stops nginx from buffering). */
export const SSE_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache',
  connection: 'keep-alive',
  'x-accel-buffering': 'no',
};

/** The comment frame sent while the stream is idle. */
export const KEEP_ALIVE_FRAME = ': keep-alive\n\n';

/** How one binding frames its events. */
export interface SseEncodeOptions {
  /** Interval of keep-alive comments while no event arrives; `0` disables them. */
  keepAliveMs: number;
  /** The single-line JSON of one event's `data:` field. */
  data(item: StreamItem): string;
  /** The complete last frame (or frames) sent when the source fails mid-stream. */
  errorFrame(error: unknown): string;
}

/** One SSE event: optional `id:` line, then `data:` with single-line JSON. */
export function sseFrame(data: string, id?: string): string {
  // An id with a line break would split the frame; such ids are dropped, not escaped.
  if (id === undefined || id.includes('\n') || id.includes('\r')) return `data: ${data}\n\n`;
  return `id: ${id}\ndata: ${data}\n\n`;
}

/**
 * Encodes `source` as SSE text chunks. Stopping the result early (`return()`, e.g. on client
 * disconnect) calls `return()` on the source at once, even while it is waiting for an event;
 * it is up to the source to treat that as "this subscriber left", never as a cancel (§3.5.2).
 */
export function encodeSse(
  source: AsyncIterable<StreamItem>,
  options: SseEncodeOptions,
): AsyncIterableIterator<string> {
  return new SseEncoder(source[Symbol.asyncIterator](), options);
}

const DONE: IteratorReturnResult<undefined> = { done: true, value: undefined };
const IDLE = Symbol('idle');
const CLOSED = Symbol('closed');
/** The source's next() rejected (kept as a value so the wait never rejects). */
class Failure {
  constructor(readonly error: unknown) {}
}
type Waited = IteratorResult<StreamItem> | Failure | typeof IDLE | typeof CLOSED;

class SseEncoder implements AsyncIterableIterator<string>, ReadyIterator<string> {
  private pending: Promise<IteratorResult<StreamItem>> | undefined;
  /** No more frames: the source ended, failed, or the consumer stopped. */
  private finished = false;
  /** The source needs no `return()`: it ended or threw on its own. */
  private sourceEnded = false;
  /** Resolves the current wait (an event, a failure, IDLE or CLOSED); set while waiting. */
  private settle: ((waited: Waited) => void) | undefined;
  /**
   * One keep-alive timer per stream, re-armed only when it fires: per event the cost is one
   * timestamp, not a setTimeout/clearTimeout pair (the timer lists showed in the profiles).
   */
  private timer: ReturnType<typeof setTimeout> | undefined;
  /**
   * When the last frame was handed out (performance.now()), kept while the keep-alive timer is
   * armed; arming it stamps the time (every frame before came earlier), so a stream read to its
   * end without waiting reads no clock.
   */
  private lastFrameAt = 0;
  private readonly keepAliveMs: number;
  private readonly onResult = (result: IteratorResult<StreamItem>) => this.resolveWait(result);
  private readonly onFailure = (error: unknown) => this.resolveWait(new Failure(error));
  private readonly onTimer = () => this.keepAliveDue();

  constructor(
    private readonly source: AsyncIterator<StreamItem>,
    private readonly options: SseEncodeOptions,
  ) {
    const ms = options.keepAliveMs;
    this.keepAliveMs = ms > 0 && Number.isFinite(ms) ? ms : 0;
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<string> {
    return this;
  }

  async next(): Promise<IteratorResult<string>> {
    if (this.finished) return DONE;
    let waited: Waited;
    try {
      this.pending ??= this.source.next();
      waited = await this.wait(this.pending);
    } catch (error) {
      waited = new Failure(error); // next() itself threw synchronously
    }
    return this.frameOf(waited);
  }

  /**
   * The next frame when the source has its event ready (core/ready-iterator.ts): no promise, no
   * keep-alive timer. Undefined while it has none, or while a `next()` waits on the source.
   */
  nextReady(): IteratorResult<string> | undefined {
    if (this.finished) return DONE;
    if (this.pending !== undefined) return undefined;
    let result: IteratorResult<StreamItem> | undefined;
    try {
      result = nextReady(this.source);
    } catch (error) {
      return this.frameOf(new Failure(error));
    }
    return result === undefined ? undefined : this.frameOf(result);
  }

  /** The frame (or the end) for what the wait on the source brought. */
  private frameOf(waited: Waited): IteratorResult<string> {
    if (waited instanceof Failure) {
      this.sourceEnded = true;
      return this.fail(waited.error);
    }
    if (waited === CLOSED || this.finished) return DONE;
    if (this.timer !== undefined) this.lastFrameAt = performance.now();
    if (waited === IDLE) return { done: false, value: KEEP_ALIVE_FRAME };
    this.pending = undefined;
    if (waited.done === true) {
      this.sourceEnded = true;
      this.finish();
      return DONE;
    }
    try {
      return { done: false, value: sseFrame(this.options.data(waited.value), waited.value.id) };
    } catch (error) {
      return this.fail(error);
    }
  }

  async return(): Promise<IteratorResult<string>> {
    this.close();
    return DONE;
  }

  /** Emits the error frame once, then ends (and releases the source if it is still open). */
  private fail(error: unknown): IteratorResult<string> {
    if (this.finished) return DONE;
    this.close();
    return { done: false, value: this.options.errorFrame(error) };
  }

  private finish(): void {
    this.finished = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private close(): void {
    if (this.finished && this.sourceEnded) return;
    this.finish();
    this.resolveWait(CLOSED);
    if (this.sourceEnded) return;
    this.sourceEnded = true;
    try {
      // Not awaited: an async generator parked on an await would hold the caller up.
      this.source.return?.().catch(() => undefined);
    } catch {
      // A throwing return() changes nothing for the client, which is gone.
    }
  }

  private wait(pending: Promise<IteratorResult<StreamItem>>): Promise<Waited> {
    return new Promise<Waited>((resolve) => {
      this.settle = resolve;
      if (this.keepAliveMs > 0 && this.timer === undefined) {
        this.lastFrameAt = performance.now();
        this.timer = setTimeout(this.onTimer, this.keepAliveMs);
      }
      // A pending kept across a keep-alive gets a second reaction: the first one to run
      // settles the current wait, the other finds nothing to settle.
      pending.then(this.onResult, this.onFailure);
    });
  }

  private resolveWait(waited: Waited): void {
    const settle = this.settle;
    this.settle = undefined;
    settle?.(waited);
  }

  /** The timer fired: a keep-alive if the stream has been idle long enough, else re-arm. */
  private keepAliveDue(): void {
    this.timer = undefined;
    if (this.finished) return;
    const idle = performance.now() - this.lastFrameAt;
    if (this.settle !== undefined && idle >= this.keepAliveMs - 1) {
      this.resolveWait(IDLE);
      return;
    }
    this.timer = setTimeout(this.onTimer, Math.max(1, this.keepAliveMs - idle));
  }
}
