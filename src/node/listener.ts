/**
 * The node:http adapter: reads the body with the size limit enforced while reading, calls the
 * handler, writes the reply (SSE chunks as they come, honouring backpressure), and turns a client
 * disconnect into an aborted signal and a stopped stream (never a canceled task, spec §3.5.2).
 */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { DEFAULT_MAX_BODY_BYTES } from '../http/handler.js';
import { statusJson } from '../http/errors.js';
import { logInternalError, toA2AError } from '../core/errors.js';
import type { HttpHandler, HttpRequest, HttpResponse } from '../http/types.js';
import type { ClientCertificate, HttpHeaders } from '../core/call-context.js';
import { DEFAULT_CONNECTION_LIMITS, refusedConnection } from './connections.js';
import { drainRefused, type DrainLimits } from './drain.js';
import { peerOf } from './tls.js';

/** Options of {@link toNodeListener}. */
export interface NodeListenerOptions {
  /** Stop reading bodies past this many bytes (default 10 MiB); use the handler's value. */
  maxBodyBytes?: number | undefined;
  /** A reply the client does not read for this long is abandoned (default 60 000 ms). */
  idleTimeoutMs?: number | undefined;
  /** Of a refused body, drain at most this much (default 8 MiB) so the refusal is read. */
  maxDrainBytes?: number | undefined;
  /** …for at most this long (default 5 000 ms). */
  drainTimeoutMs?: number | undefined;
}

interface ListenerSettings extends DrainLimits {
  readonly maxBodyBytes: number;
  readonly idleTimeoutMs: number;
}

/** A `node:http` request listener. */
export type NodeListener = (req: IncomingMessage, res: ServerResponse) => void;

const TOO_LARGE = Symbol('too large');

/** Wraps an A2A handler as a `node:http` request listener. */
export function toNodeListener(
  handler: HttpHandler,
  options: NodeListenerOptions = {},
): NodeListener {
  const settings: ListenerSettings = {
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    idleTimeoutMs: options.idleTimeoutMs ?? DEFAULT_CONNECTION_LIMITS.idleTimeoutMs,
    maxDrainBytes: options.maxDrainBytes ?? DEFAULT_CONNECTION_LIMITS.maxDrainBytes,
    drainTimeoutMs: options.drainTimeoutMs ?? DEFAULT_CONNECTION_LIMITS.drainTimeoutMs,
  };
  return (req, res) => {
    handle(handler, settings, req, res).catch((error: unknown) => {
      // Only a broken socket gets here; there is nobody left to answer.
      logInternalError(error);
      res.destroy();
    });
  };
}

async function handle(
  handler: HttpHandler,
  settings: ListenerSettings,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const refused = refusedConnection(req.socket); // past the per-address connection cap
  if (refused !== undefined) {
    drainRefused(req, settings);
    await writeResponse(res, refused, settings.idleTimeoutMs);
    return;
  }
  let body: Uint8Array | undefined | typeof TOO_LARGE;
  try {
    body = await readBody(req, settings.maxBodyBytes);
  } catch {
    res.destroy(); // the client went away while sending
    return;
  }
  const request = new NodeRequest(req, res, body);
  let response: HttpResponse;
  try {
    response = await handler(request);
  } catch (error) {
    const a2a = toA2AError(error, logInternalError);
    response = {
      status: 500,
      headers: { 'content-type': 'application/json' },
      body: statusJson(a2a),
    };
  }
  // The rest of an oversized body is not wanted: drain some of it, so the refusal is read, and close.
  if (body === TOO_LARGE) {
    response.headers = { ...response.headers, connection: 'close' };
    drainRefused(req, settings);
  }
  await writeResponse(res, response, settings.idleTimeoutMs);
}

/**
 * One request as the handler sees it. The abort signal is made when something first reads it
 * (streams do; a blocking call does not need one).
 */
class NodeRequest implements HttpRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: HttpHeaders;
  readonly body: Uint8Array | undefined;
  readonly bodyTooLarge: boolean;
  readonly remoteAddress: string | undefined;
  readonly clientCertificate: ClientCertificate | undefined;
  private controller: AbortController | undefined;

  constructor(
    req: IncomingMessage,
    private readonly res: ServerResponse,
    body: Uint8Array | undefined | typeof TOO_LARGE,
  ) {
    this.method = req.method ?? 'GET';
    this.url = req.url ?? '/';
    this.headers = new NodeHeaders(req.headers);
    this.body = body === TOO_LARGE ? undefined : body;
    this.bodyTooLarge = body === TOO_LARGE;
    // IP address and TLS client certificate, for authentication and rate limits.
    const peer = peerOf(req);
    this.remoteAddress = peer.remoteAddress;
    this.clientCertificate = peer.clientCertificate;
  }

  get signal(): AbortSignal {
    if (this.controller === undefined) {
      const controller = (this.controller = new AbortController());
      const { res } = this;
      if (res.destroyed) {
        if (!res.writableFinished) controller.abort();
      } else {
        res.once('close', () => {
          if (!res.writableFinished) controller.abort();
        });
      }
    }
    return this.controller.signal;
  }
}

/** Lower-case header lookup over Node's already lower-cased header object. */
class NodeHeaders implements HttpHeaders {
  constructor(private readonly headers: IncomingHttpHeaders) {}
  get(name: string): string | null {
    const value = this.headers[name];
    if (value === undefined) return null;
    return typeof value === 'string' ? value : value.join(', ');
  }
}

/**
 * The body bytes, undefined when there is none, TOO_LARGE as soon as it passes the limit. They
 * stay bytes: `bodyText` decodes them and refuses what is not UTF-8.
 */
function readBody(
  req: IncomingMessage,
  maxBodyBytes: number,
): Promise<Uint8Array | undefined | typeof TOO_LARGE> {
  const length = req.headers['content-length'];
  if (length === undefined && req.headers['transfer-encoding'] === undefined) {
    return Promise.resolve(undefined);
  }
  if (length !== undefined && Number(length) > maxBodyBytes) return Promise.resolve(TOO_LARGE);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    const cleanup = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onAbort);
      req.off('close', onAbort);
    };
    const onData = (chunk: Buffer) => {
      total += chunk.length;
      if (total > maxBodyBytes) {
        cleanup();
        req.pause(); // stop reading: nothing more is buffered
        resolve(TOO_LARGE);
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, total));
    };
    const onAbort = () => {
      cleanup();
      reject(new Error('request aborted while reading the body'));
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onAbort);
    req.on('close', onAbort);
  });
}

/** Statuses that never carry a body, so no Content-Length either. */
function bodyless(status: number): boolean {
  return status === 304 || status === 204 || (status >= 100 && status < 200);
}

async function writeResponse(
  res: ServerResponse,
  response: HttpResponse,
  idleTimeoutMs: number,
): Promise<void> {
  const { status, headers, body } = response;
  // A client that stops reading the reply (the socket makes no progress) is let go. Set only
  // now: while the handler works (a blocking send) the client owes nothing.
  res.setTimeout(idleTimeoutMs, () => res.destroy());
  if (body === undefined || typeof body === 'string') {
    if (!bodyless(status)) {
      headers['content-length'] = body === undefined ? '0' : String(Buffer.byteLength(body));
    }
    res.writeHead(status, headers);
    res.end(body);
    return;
  }
  res.writeHead(status, headers);
  // Frames produced in one burst (an agent yielding several events before it awaits I/O) go out
  // in one write: cork, and uncork once the current microtasks have run. Without this each
  // event costs a syscall, which dominated the cost per event of short streams.
  let corked = false;
  const uncork = () => {
    if (!corked) return;
    corked = false;
    res.uncork();
  };
  const cork = () => {
    if (corked) return;
    corked = true;
    res.cork();
    process.nextTick(uncork);
  };
  cork();
  res.flushHeaders(); // SSE: the client sees the stream open before the first event
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
    uncork();
    stop(); // gone before the stream started: 'close' has fired already
    return;
  }
  res.once('close', stop);
  try {
    for (;;) {
      const next = await iterator.next();
      if (next.done === true || res.destroyed) break;
      cork();
      if (!res.write(next.value)) {
        uncork(); // 'drain' only comes once the buffered frames are handed to the socket
        await drained(res);
      }
    }
  } finally {
    uncork();
    res.off('close', stop);
    if (res.destroyed) stop();
    else res.end();
  }
}

/** Resolves when the socket can take more data, or is gone. */
function drained(res: ServerResponse): Promise<void> {
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
