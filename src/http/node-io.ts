/**
 * Body reading and reply writing on Node's request and response objects, shared by the node:http
 * listener (src/node/listener.ts) and the framework adapters that hand those objects out
 * (Express, Fastify). Typed by shape, so this runtime-neutral floor never imports node:http. The
 * body is read with the limit enforced while reading; SSE frames are written as they come (the
 * frames of one burst as one chunk), honouring backpressure, and a client that goes away stops
 * the source (never cancels the task, spec §3.5.2). A stream whose frames are all ready when it
 * is written goes out as one reply with a Content-Length.
 */
import { nextReady, type ReadyIterator } from '../core/ready-iterator.js';
import { concatBytes } from './body.js';
import type { HttpResponse } from './types.js';
import { withFields } from '../core/with-fields.js';

/** The parts of a Node `IncomingMessage` this file uses. */
export interface NodeRequestLike {
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  on(event: 'data', listener: (chunk: Uint8Array) => void): unknown;
  on(event: 'end' | 'error' | 'close', listener: () => void): unknown;
  off(event: 'data', listener: (chunk: Uint8Array) => void): unknown;
  off(event: 'end' | 'error' | 'close', listener: () => void): unknown;
  pause(): unknown;
}

/** The parts of a Node `ServerResponse` this file uses. */
export interface NodeResponseLike {
  readonly destroyed: boolean;
  readonly writableFinished: boolean;
  /** A write was refused (the socket's buffer is full) and 'drain' has not come yet. */
  readonly writableNeedDrain: boolean;
  writeHead(status: number, headers: Record<string, string>): unknown;
  flushHeaders(): void;
  write(chunk: string): boolean;
  end(chunk?: string): unknown;
  once(event: 'close', listener: () => void): unknown;
  on(event: 'drain' | 'close', listener: () => void): unknown;
  off(event: 'drain' | 'close', listener: () => void): unknown;
}

/** What the node:http listener adds to a response: the idle timeout. */
export interface NodeServerResponseLike extends NodeResponseLike {
  setTimeout(ms: number, onTimeout: () => void): unknown;
  destroy(): unknown;
}

/** What {@link readNodeBody} found: the bytes, no body, or a body past the limit. */
export type NodeBody = Uint8Array | undefined | 'too large';

/**
 * Reads the whole body, stopping (and pausing the stream, so nothing more is buffered) once it
 * passes `maxBodyBytes`. The bytes stay bytes: `bodyText` decodes them and refuses non-UTF-8.
 * Rejects when the client goes away while sending.
 */
export function readNodeBody(req: NodeRequestLike, maxBodyBytes: number): Promise<NodeBody> {
  return new Promise((resolve, reject) => onNodeBody(req, maxBodyBytes, resolve, reject));
}

/**
 * {@link readNodeBody} with callbacks: `done` gets the body (synchronously when there is none or
 * its announced length is past the limit), `failed` is called when the client goes away while
 * sending. Exactly one of them is called, once. The node:http listener uses this: no promise per
 * request for the body.
 */
export function onNodeBody(
  req: NodeRequestLike,
  maxBodyBytes: number,
  done: (body: NodeBody) => void,
  failed: (error: Error) => void,
): void {
  const length = req.headers['content-length'];
  if (length === undefined && req.headers['transfer-encoding'] === undefined) {
    done(undefined);
    return;
  }
  if (typeof length === 'string' && Number(length) > maxBodyBytes) {
    done('too large');
    return;
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  const cleanup = () => {
    req.off('data', onData);
    req.off('end', onEnd);
    req.off('error', onAbort);
    req.off('close', onAbort);
  };
  const onData = (chunk: Uint8Array) => {
    total += chunk.byteLength;
    if (total > maxBodyBytes) {
      cleanup();
      req.pause();
      done('too large');
      return;
    }
    chunks.push(chunk);
  };
  const onEnd = () => {
    cleanup();
    done(concatBytes(chunks, total));
  };
  const onAbort = () => {
    cleanup();
    failed(new Error('the client went away while sending the body'));
  };
  req.on('data', onData);
  req.on('end', onEnd);
  req.on('error', onAbort);
  req.on('close', onAbort);
}

/** An AbortSignal aborted when `res` closes before the reply was finished (a disconnect). */
export function disconnectSignal(res: NodeResponseLike): AbortSignal {
  const controller = new AbortController();
  if (res.destroyed) {
    if (!res.writableFinished) controller.abort();
  } else {
    res.once('close', () => {
      if (!res.writableFinished) controller.abort();
    });
  }
  return controller.signal;
}

/** Options of {@link writeNodeResponse} that only the node:http listener uses. */
export interface NodeWriteOptions<R extends NodeResponseLike> {
  /**
   * Called before writing: the listener sets its idle timeout here (a client that stops reading
   * the reply is let go; while the handler works the client owes nothing).
   */
  readonly prepare?: ((res: R) => void) | undefined;
  /**
   * Make the socket writes when this scheduler calls back: a string reply, and the SSE frames
   * produced in one burst (an agent yielding several events before it awaits I/O) joined into
   * one chunk. The listener's holds them to the end of the event loop's turn, so that the
   * replies of one turn leave together (src/node/write-coalescing.ts). Without it a reply is
   * written at once and each frame as it comes.
   */
  readonly flushOn?: ((flush: () => void) => void) | undefined;
}

/**
 * Writes `response` to `res`: a string body at once (synchronously: nothing to await, undefined
 * is returned), an SSE body frame by frame (the returned promise settles when it ended).
 */
export function writeNodeResponse<R extends NodeResponseLike>(
  res: R,
  response: HttpResponse,
  options: NodeWriteOptions<R> = {},
): Promise<void> | undefined {
  const { status, headers } = response;
  const body = typeof response.body === 'object' ? settleReady(response.body) : response.body;
  options.prepare?.(res);
  if (body === undefined || typeof body === 'string') {
    const withLength = bodyless(status)
      ? headers
      : withFields(headers, {
          'content-length': body === undefined ? '0' : String(byteLength(body)),
        });
    res.writeHead(status, withLength);
    const { flushOn } = options;
    if (flushOn === undefined) res.end(body);
    else flushOn(() => endOpen(res, body));
    return undefined;
  }
  return writeSse(res, status, headers, body, options.flushOn);
}

/** Ends `res` with `body` unless the client went away meanwhile. */
function endOpen(res: NodeResponseLike, body?: string): void {
  if (!res.destroyed) res.end(body);
}

async function writeSse(
  res: NodeResponseLike,
  status: number,
  headers: Record<string, string>,
  body: AsyncIterable<string>,
  flushOn: ((flush: () => void) => void) | undefined,
): Promise<void> {
  res.writeHead(status, headers);
  const out = new BurstWriter(res, flushOn);
  out.open(); // SSE: the client sees the stream open before the first event
  const iterator = body[Symbol.asyncIterator]();
  // A disconnect stops the source at once, even while it waits for the next event.
  const stop = () => {
    try {
      iterator.return?.().catch(() => undefined);
    } catch {
      // Nothing to do: the client is gone either way.
    }
  };
  if (res.destroyed) {
    stop(); // gone before the stream started: 'close' has fired already
    return;
  }
  res.once('close', stop);
  try {
    for (;;) {
      // What the source has ready is written without a promise per frame; then it is awaited.
      const next = nextReady(iterator) ?? (await iterator.next());
      if (next.done === true || res.destroyed) break;
      out.write(next.value);
      // Backpressure per burst: a refused write stops the source until the socket drained.
      if (res.writableNeedDrain) await drained(res);
    }
  } finally {
    res.off('close', stop);
    if (res.destroyed) stop();
    else out.end();
  }
}

/**
 * An SSE body whose frames are all there already (a stream of a task whose events were all in
 * the store when it opened) as one string: written like any reply, with a Content-Length and
 * in one socket write, no chunked framing, no disconnect handling, no idle timer, nothing left
 * to wait for. Otherwise the body, with the frames it had ready (at most {@link MAX_BURST}) taken
 * and put back in front, so nothing is held back: they go out with the stream's first burst.
 */
export function settleReady(body: AsyncIterable<string>): string | AsyncIterable<string> {
  if (body instanceof ReadyPrefix) return body;
  const iterator = body[Symbol.asyncIterator]();
  let text = '';
  for (;;) {
    let next: IteratorResult<string> | undefined;
    try {
      next = nextReady(iterator);
    } catch (error) {
      return new ReadyPrefix(text, iterator, { error });
    }
    if (next === undefined) break;
    if (next.done === true) return text;
    text += next.value;
    if (text.length >= MAX_BURST) break;
  }
  // Nothing ready: the iterator as it is (no wrapper to pay per frame).
  if (text === '') return { [Symbol.asyncIterator]: () => iterator };
  return new ReadyPrefix(text, iterator, undefined);
}

/** The rest of an SSE body after {@link settleReady}: the frames taken, then the source. */
class ReadyPrefix implements AsyncIterableIterator<string>, ReadyIterator<string> {
  constructor(
    private prefix: string,
    private readonly rest: AsyncIterator<string>,
    /** What the source's `nextReady()` threw, thrown where its `next()` would have rejected. */
    private failure: { error: unknown } | undefined,
  ) {}

  [Symbol.asyncIterator](): this {
    return this;
  }

  nextReady(): IteratorResult<string> | undefined {
    if (this.prefix !== '') {
      const value = this.prefix;
      this.prefix = '';
      return { done: false, value };
    }
    const failure = this.failure;
    if (failure !== undefined) {
      this.failure = undefined;
      throw failure.error;
    }
    return nextReady(this.rest);
  }

  async next(): Promise<IteratorResult<string>> {
    return this.nextReady() ?? this.rest.next();
  }

  async return(value?: unknown): Promise<IteratorResult<string>> {
    return (await this.rest.return?.(value)) ?? { done: true, value: undefined };
  }
}

/**
 * The frames of one burst as one chunk of the chunked encoding, written when `flushOn` calls
 * back: one `write` per burst instead of one per frame, and the end of a stream that ends
 * within its burst in the same socket write as its last frames. Without `flushOn`, frames are
 * written as they come.
 */
class BurstWriter {
  private burst = '';
  private scheduled = false;
  /** Something was written (`headersSent` is already true after `writeHead`). */
  private opened = false;
  /** The stream ended: the next write out is its last. */
  private ending = false;
  private readonly flush = () => {
    this.scheduled = false;
    this.writeOut();
  };

  constructor(
    private readonly res: NodeResponseLike,
    private readonly flushOn: ((flush: () => void) => void) | undefined,
  ) {}

  /** The head goes out with the first burst, or alone at the first flush if no event came. */
  open(): void {
    if (this.flushOn === undefined) this.res.flushHeaders();
    else this.schedule();
  }

  write(frame: string): void {
    if (this.flushOn === undefined) {
      this.res.write(frame);
      return;
    }
    this.burst += frame;
    // A burst that does not stop (a source that never awaits I/O) is written as it grows, so
    // that backpressure still applies within it.
    if (this.burst.length >= MAX_BURST) this.writeOut();
    else this.schedule();
  }

  /**
   * Ends the reply, with the frames still waiting for the flush as its last chunk: at the flush
   * (one scheduled already, or one scheduled now), or at once without `flushOn`.
   */
  end(): void {
    this.ending = true;
    if (this.flushOn === undefined) this.writeOut();
    else this.schedule();
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    this.flushOn?.(this.flush);
  }

  private writeOut(): void {
    const chunk = this.burst;
    this.burst = '';
    const opened = this.opened;
    this.opened = true;
    if (this.res.destroyed) return;
    if (this.ending) endOpen(this.res, chunk === '' ? undefined : chunk);
    else if (chunk !== '') this.res.write(chunk);
    else if (!opened) this.res.flushHeaders(); // no event yet: open the stream
  }
}

/** UTF-16 units of frames written at once within a burst: Node's socket buffer (16 KiB). */
const MAX_BURST = 16 * 1024;

/** Statuses that never carry a body, so no Content-Length either. */
function bodyless(status: number): boolean {
  return status === 304 || status === 204 || (status >= 100 && status < 200);
}

/** UTF-8 length: Node's native count where there is one (no copy), else an encoding. */
const nodeBuffer = (
  globalThis as { Buffer?: { byteLength(text: string, encoding: 'utf8'): number } }
).Buffer;
const encoder = new TextEncoder();
function byteLength(text: string): number {
  return nodeBuffer ? nodeBuffer.byteLength(text, 'utf8') : encoder.encode(text).byteLength;
}

/** Resolves when the socket can take more data, or is gone. */
function drained(res: NodeResponseLike): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}
