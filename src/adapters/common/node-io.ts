/**
 * Body reading and reply writing for frameworks that hand out Node's request and response objects
 * (Express, Fastify), typed by shape so this floor never imports node:http. The body is read with
 * the limit enforced while reading; SSE frames are written as they come, honouring backpressure,
 * and a client that goes away stops the source (never cancels the task, spec §3.5.2).
 */
import type { HttpResponse } from '../../http/types.js';

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
  writeHead(status: number, headers: Record<string, string>): unknown;
  flushHeaders(): void;
  write(chunk: string): boolean;
  end(chunk?: string): unknown;
  once(event: 'close', listener: () => void): unknown;
  on(event: 'drain' | 'close', listener: () => void): unknown;
  off(event: 'drain' | 'close', listener: () => void): unknown;
}

/** What {@link readNodeBody} found. */
export type NodeBody = Uint8Array | undefined | 'too large';

/** Reads the whole body, stopping (and pausing the stream) once it passes `maxBodyBytes`. */
export function readNodeBody(req: NodeRequestLike, maxBodyBytes: number): Promise<NodeBody> {
  const length = req.headers['content-length'];
  if (length === undefined && req.headers['transfer-encoding'] === undefined) {
    return Promise.resolve(undefined);
  }
  if (typeof length === 'string' && Number(length) > maxBodyBytes) {
    return Promise.resolve('too large');
  }
  return new Promise((resolve, reject) => {
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
        resolve('too large');
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(concat(chunks, total));
    };
    const onAbort = () => {
      cleanup();
      reject(new Error('the client went away while sending the body'));
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onAbort);
    req.on('close', onAbort);
  });
}

function concat(chunks: readonly Uint8Array[], total: number): Uint8Array {
  if (chunks.length === 1 && chunks[0] !== undefined) return chunks[0];
  const body = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}

/** An AbortSignal aborted when `res` closes before the reply was finished (a disconnect). */
export function disconnectSignal(res: NodeResponseLike): AbortSignal {
  const controller = new AbortController();
  if (res.destroyed) controller.abort();
  else res.once('close', () => !res.writableFinished && controller.abort());
  return controller.signal;
}

/** Writes `response` to `res`: a string body at once, an SSE body frame by frame. */
export async function writeNodeResponse(
  res: NodeResponseLike,
  response: HttpResponse,
): Promise<void> {
  const { status, headers, body } = response;
  if (body === undefined || typeof body === 'string') {
    const withLength = { ...headers };
    if (status !== 204 && status !== 304) {
      withLength['content-length'] = String(body === undefined ? 0 : byteLength(body));
    }
    res.writeHead(status, withLength);
    res.end(body);
    return;
  }
  res.writeHead(status, headers);
  res.flushHeaders(); // SSE: the client sees the stream open before the first event
  const iterator = body[Symbol.asyncIterator]();
  const stop = () => void iterator.return?.()?.catch(() => undefined);
  if (res.destroyed) return stop();
  res.once('close', stop);
  try {
    for (;;) {
      const next = await iterator.next();
      if (next.done === true || res.destroyed) break;
      if (!res.write(next.value)) await drained(res);
    }
  } finally {
    res.off('close', stop);
    if (res.destroyed) stop();
    else res.end();
  }
}

const encoder = new TextEncoder();
function byteLength(text: string): number {
  return encoder.encode(text).byteLength;
}

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
