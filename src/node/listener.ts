/**
 * The node:http adapter: reads the body with the size limit enforced while reading, calls the
 * handler, writes the reply (SSE chunks as they come, honouring backpressure), and turns a client
 * disconnect into an aborted signal and a stopped stream (never a canceled task, spec §3.5.2).
 * The reading and writing are src/http/node-io.ts, shared with the Express and Fastify adapters.
 */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { DEFAULT_MAX_BODY_BYTES } from '../http/handler.js';
import { statusJson } from '../http/errors.js';
import { logInternalError, toA2AError } from '../core/errors.js';
import {
  disconnectSignal,
  onNodeBody,
  settleReady,
  writeNodeResponse,
  type NodeBody,
  type NodeWriteOptions,
} from '../http/node-io.js';
import type { HttpHandler, HttpRequest, HttpResponse } from '../http/types.js';
import type { ClientCertificate, HttpHeaders } from '../core/call-context.js';
import { DEFAULT_CONNECTION_LIMITS, refusedConnection } from './connections.js';
import { drainRefused, type DrainLimits } from './drain.js';
import { peerOf } from './tls.js';
import { WriteCoalescer } from './write-coalescing.js';
import { withFields } from '../core/with-fields.js';

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
  /** How replies are written: small string bodies without an idle timeout, the rest with it. */
  readonly small: NodeWriteOptions<ServerResponse>;
  readonly large: NodeWriteOptions<ServerResponse>;
}

/** A `node:http` request listener. */
export type NodeListener = (req: IncomingMessage, res: ServerResponse) => void;

/** Wraps an A2A handler as a `node:http` request listener. */
export function toNodeListener(
  handler: HttpHandler,
  options: NodeListenerOptions = {},
): NodeListener {
  const idleTimeoutMs = options.idleTimeoutMs ?? DEFAULT_CONNECTION_LIMITS.idleTimeoutMs;
  const settings: ListenerSettings = {
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    ...writeOptions(idleTimeoutMs),
    maxDrainBytes: options.maxDrainBytes ?? DEFAULT_CONNECTION_LIMITS.maxDrainBytes,
    drainTimeoutMs: options.drainTimeoutMs ?? DEFAULT_CONNECTION_LIMITS.drainTimeoutMs,
  };
  return (req, res) => handle(handler, settings, req, res);
}

/**
 * One request. Not async: the body comes by callback and the handler's promise is mapped once,
 * so a blocking call costs the listener one promise (the async version had three, and as many
 * turns of the microtask queue).
 */
function handle(
  handler: HttpHandler,
  settings: ListenerSettings,
  req: IncomingMessage,
  res: ServerResponse,
): void {
  const refused = refusedConnection(req.socket); // past the per-address connection cap
  if (refused !== undefined) {
    drainRefused(req, settings);
    write(res, refused, settings);
    return;
  }
  onNodeBody(
    req,
    settings.maxBodyBytes,
    (body) => answer(handler, settings, req, res, body),
    () => res.destroy(), // the client went away while sending
  );
}

function answer(
  handler: HttpHandler,
  settings: ListenerSettings,
  req: IncomingMessage,
  res: ServerResponse,
  body: NodeBody,
): void {
  let request: NodeRequest;
  try {
    request = new NodeRequest(req, res, body);
  } catch (error) {
    broken(res, error);
    return;
  }
  let pending: Promise<HttpResponse>;
  try {
    pending = Promise.resolve(handler(request));
  } catch (error) {
    respond(settings, req, res, body, undefined, error);
    return;
  }
  void pending.then(
    (response) => respond(settings, req, res, body, response),
    (error: unknown) => respond(settings, req, res, body, undefined, error),
  );
}

/** Writes the handler's answer, or a 500 for its `error`. */
function respond(
  settings: ListenerSettings,
  req: IncomingMessage,
  res: ServerResponse,
  body: NodeBody,
  answered: HttpResponse | undefined,
  error?: unknown,
): void {
  try {
    const response = answered ?? internalError(error);
    // The rest of an oversized body is not wanted: drain some of it, so the refusal is read, and close.
    if (body === 'too large') {
      response.headers = withFields(response.headers, { connection: 'close' });
      drainRefused(req, settings);
    }
    write(res, response, settings);
  } catch (error) {
    broken(res, error);
  }
}

/** Writes the reply: a string body synchronously, an SSE body until it ended. */
function write(res: ServerResponse, response: HttpResponse, settings: ListenerSettings): void {
  try {
    writeResponse(res, response, settings)?.catch((error: unknown) => broken(res, error));
  } catch (error) {
    broken(res, error);
  }
}

function internalError(error: unknown): HttpResponse {
  const a2a = toA2AError(error, logInternalError);
  return { status: 500, headers: { 'content-type': 'application/json' }, body: statusJson(a2a) };
}

/** Only a broken socket gets here; there is nobody left to answer. */
function broken(res: ServerResponse, error: unknown): void {
  logInternalError(error);
  res.destroy();
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
  readonly secure: boolean;
  private disconnect: AbortSignal | undefined;

  constructor(
    req: IncomingMessage,
    private readonly res: ServerResponse,
    body: NodeBody,
  ) {
    this.method = req.method ?? 'GET';
    this.url = req.url ?? '/';
    this.headers = new NodeHeaders(req.headers);
    this.body = body === 'too large' ? undefined : body;
    this.bodyTooLarge = body === 'too large';
    // IP address and TLS client certificate, for authentication and rate limits; only a TLS
    // socket has a certificate to look at (no object per plain request).
    const socket = req.socket;
    this.remoteAddress = socket.remoteAddress;
    this.secure = 'encrypted' in socket && socket.encrypted === true;
    this.clientCertificate = this.secure ? peerOf(req).clientCertificate : undefined;
  }

  get signal(): AbortSignal {
    return (this.disconnect ??= disconnectSignal(this.res));
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

/** UTF-16 units of a reply small enough to need no idle timeout: ≤ 12 KiB of UTF-8, under the
 * smallest socket send buffer Linux starts with (16 KiB). */
const SMALL_REPLY = 4 * 1024;

/** Writes a reply: idle timeout once writing starts, each SSE burst in one write. */
function writeResponse(
  res: ServerResponse,
  response: HttpResponse,
  settings: ListenerSettings,
): Promise<void> | undefined {
  // An SSE body that is all there already is written like a string body (node-io.ts).
  const body = typeof response.body === 'object' ? settleReady(response.body) : response.body;
  const small = typeof body === 'string' && body.length <= SMALL_REPLY;
  const settled = body === response.body ? response : withFields(response, { body });
  return writeNodeResponse(res, settled, small ? settings.small : settings.large);
}

/** The write options of a listener, made once (not per request). */
function writeOptions(idleTimeoutMs: number): Pick<ListenerSettings, 'small' | 'large'> {
  // A string reply, and each SSE burst, written at the end of the turn with every other reply of
  // that turn (write-coalescing.ts): the frames of a burst in one write (one write per event
  // cost a syscall each, which dominated the cost per event of short streams), and the replies
  // of a turn back to back (one wake-up of the client for all of them).
  const flushOn = new WriteCoalescer(logInternalError).later;
  return {
    // A small reply fits the socket's send buffer at once, so it never waits on the client: no
    // timer for it (the server's keep-alive timeout then closes an idle connection).
    small: { flushOn },
    // A client that stops reading the reply (the socket makes no progress) is let go. Set only
    // now: while the handler works (a blocking send) the client owes nothing.
    large: { prepare: (r) => r.setTimeout(idleTimeoutMs, () => r.destroy()), flushOn },
  };
}
