/**
 * Client of an agent's NATS interface (docs/bindings/nats.md): unary operations as NATS
 * request-reply, streams on a per-call inbox whose messages are acked one by one. Connections
 * are shared per server URL and opened on first use. A stream that loses its connection ends
 * with a NETWORK TransportError carrying the last event id, so A2AClient resumes it with
 * SubscribeToTask + `a2a-last-event-id` (no event lost or repeated).
 */
import {
  headers as natsHeaders,
  type Msg,
  type MsgHdrs,
  type NatsConnection,
} from '@nats-io/transport-node';
import { A2AError } from '../../core/errors.js';
import type { OperationParams, StreamingOperationName } from '../../core/operations.js';
import { PROTOCOL_VERSION } from '../../core/interfaces.js';
import { openNats } from '../../stores/nats/connection.js';
import { TransportError } from '../../transport/errors.js';
import {
  BaseTransport,
  DEFAULT_IDLE_TIMEOUT_MS,
  DEFAULT_TIMEOUT_MS,
  resultSchema,
  type CallOptions,
  type OperationResult,
  type StreamItem,
  type TransportOptions,
  type UnaryOperationName,
} from '../../transport/transport.js';
import { errorFromStatus } from '../rest/client.js';
import { NATS_BINDING, NATS_HEADERS as H, operationSubject, parseNatsUrl } from './wire.js';

/** Options of a {@link NatsTransport}. */
export interface NatsTransportOptions extends TransportOptions {
  /** An open connection to use instead of connecting to the URL's server (left open). */
  connection?: NatsConnection | undefined;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Connections by server URL, shared by the transports of one process. */
const shared = new Map<string, { nc: Promise<NatsConnection>; users: number }>();

/** Client of one NATS interface. */
export class NatsTransport extends BaseTransport {
  readonly binding = NATS_BINDING;
  readonly url: string;
  private readonly server: string;
  private readonly prefix: string;
  private connection: Promise<NatsConnection> | undefined;
  private closed = false;

  constructor(private readonly options: NatsTransportOptions) {
    super();
    this.url = options.url;
    const address = parseNatsUrl(options.url);
    this.server = address.server;
    this.prefix = address.prefix;
  }

  async call<N extends UnaryOperationName>(
    operation: N,
    request: OperationParams<N>,
    options: CallOptions = {},
  ): Promise<OperationResult<N>> {
    const nc = await this.nc();
    const timeout = options.timeoutMs ?? this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    let reply: Msg;
    try {
      const pending = nc.request(operationSubject(this.prefix, operation), this.body(request, nc), {
        headers: this.headers(options),
        timeout,
      });
      reply = await abortable(pending, options.signal);
    } catch (error) {
      throw this.failure(error);
    }
    const kind = reply.headers?.get(H.kind);
    const json = parseJson(reply.data);
    if (kind === 'error') throw this.peerError(json);
    if (kind !== 'ok') throw this.bad(`a reply of kind "${kind ?? ''}" to ${operation}`);
    const parsed = resultSchema(operation).safeParse(json);
    if (!parsed.success) throw this.bad(`an invalid ${operation} result: ${parsed.error.message}`);
    return parsed.data as OperationResult<N>;
  }

  async *stream<N extends StreamingOperationName>(
    operation: N,
    request: OperationParams<N>,
    options: CallOptions = {},
  ): AsyncGenerator<StreamItem> {
    const nc = await this.nc();
    const inbox = nc.subscribe(`_INBOX.${crypto.randomUUID().replace(/-/g, '')}`);
    const idle = options.idleTimeoutMs ?? this.options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
    const first = options.timeoutMs ?? this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    let lastEventId = options.lastEventId;
    // A dropped connection loses what was sent meanwhile: the stream ends and is resumed.
    let dropped = false;
    const statuses = nc.status() as AsyncIterable<{ type: string }> & { stop?: () => void };
    void (async () => {
      for await (const status of statuses) {
        if (status.type === 'disconnect' || status.type === 'reconnect') {
          dropped = true;
          inbox.unsubscribe();
          return;
        }
      }
    })();
    const iterator = inbox[Symbol.asyncIterator]();
    try {
      nc.publish(operationSubject(this.prefix, operation), this.body(request, nc), {
        reply: inbox.getSubject(),
        headers: this.headers(options),
      });
      let opened = false;
      for (;;) {
        const next = await withTimeout(iterator.next(), opened ? idle : first, options.signal);
        if (next === 'timeout') {
          throw new TransportError(
            'TIMEOUT',
            `no message on the NATS stream for ${opened ? idle : first} ms`,
            { url: this.url },
          );
        }
        if (next.done) {
          if (dropped) {
            throw new TransportError('NETWORK', 'the NATS connection dropped during the stream', {
              url: this.url,
            });
          }
          throw new TransportError(
            'STREAM_CLOSED',
            'the NATS stream ended without its end message',
            { url: this.url },
          );
        }
        const msg = next.value;
        const kind = msg.headers?.get(H.kind);
        if (!kind && msg.headers?.code === 503) {
          // NATS's "no responders" status: nobody serves the subject (yet), e.g. just after a
          // NATS restart. Unreachable, so the client resumes or falls back.
          throw new TransportError('NETWORK', 'no NATS responder for the stream request', {
            url: this.url,
          });
        }
        if (kind === 'error') throw this.peerError(parseJson(msg.data));
        if (msg.reply) msg.respond(); // the ack that paces the server
        if (kind === 'open' || kind === 'keepalive') {
          opened = true;
          continue;
        }
        if (kind === 'end') return;
        if (kind !== 'event') throw this.bad(`a stream message of kind "${kind ?? ''}"`);
        const parsed = resultSchema(operation).safeParse(parseJson(msg.data));
        if (!parsed.success) throw this.bad(`an invalid stream event: ${parsed.error.message}`);
        const id = msg.headers?.get(H.seq) || undefined;
        if (id !== undefined) lastEventId = id;
        yield { id, event: parsed.data as StreamItem['event'] };
      }
    } catch (error) {
      if (error instanceof A2AError || error instanceof TransportError) throw error;
      throw this.failure(error, lastEventId);
    } finally {
      inbox.unsubscribe();
      statuses.stop?.();
    }
  }

  /** Releases the shared connection when this was its last user. */
  close(): void {
    if (this.closed || !this.connection || this.options.connection) return;
    this.closed = true;
    const entry = shared.get(this.server);
    if (entry && --entry.users === 0) {
      shared.delete(this.server);
      void entry.nc.then((nc) => nc.close()).catch(() => undefined);
    }
  }

  private nc(): Promise<NatsConnection> {
    if (this.closed)
      return Promise.reject(new TransportError('NETWORK', 'the NATS transport is closed'));
    if (this.options.connection) return Promise.resolve(this.options.connection);
    if (!this.connection) {
      let entry = shared.get(this.server);
      if (!entry) {
        const nc = openNats({ servers: this.server }).then((o) => o.nc);
        entry = { nc, users: 0 };
        shared.set(this.server, entry);
        nc.catch(() => shared.delete(this.server));
      }
      entry.users++;
      this.connection = entry.nc.catch((error: unknown) => {
        throw new TransportError(
          'NETWORK',
          `cannot connect to NATS at ${this.server}: ${String(error)}`,
          {
            url: this.url,
            cause: error,
          },
        );
      });
    }
    return this.connection;
  }

  private body(request: unknown, nc: NatsConnection): Uint8Array {
    const tenant = this.options.tenant;
    const withTenant =
      tenant && typeof request === 'object' && request !== null ? { ...request, tenant } : request;
    const data = encoder.encode(JSON.stringify(withTenant ?? {}));
    const max = nc.info?.max_payload;
    if (max !== undefined && data.byteLength > max - 1024) {
      // NETWORK: before an interface has answered, the client falls back to the next one.
      throw new TransportError(
        'NETWORK',
        `the request is ${data.byteLength} bytes, over the NATS max payload of ${max} bytes: send large files by URL, or over an HTTP interface`,
        { url: this.url },
      );
    }
    return data;
  }

  private headers(options: CallOptions): MsgHdrs {
    const h = natsHeaders();
    h.set(H.version, PROTOCOL_VERSION);
    for (const layer of [this.options.headers, options.headers]) {
      for (const [key, value] of Object.entries(layer ?? {})) h.set(key.toLowerCase(), value);
    }
    if (options.lastEventId !== undefined) h.set(H.lastEventId, options.lastEventId);
    return h;
  }

  private peerError(json: unknown): Error {
    return errorFromStatus(json, 500) ?? this.bad('an error reply that is no google.rpc.Status');
  }

  private bad(what: string): TransportError {
    return new TransportError('BAD_RESPONSE', `the agent sent ${what}`, { url: this.url });
  }

  private failure(error: unknown, _lastEventId?: string): TransportError {
    if (error instanceof TransportError) return error;
    const name = (error as { name?: unknown } | null)?.name;
    const message = error instanceof Error ? error.message : String(error);
    if (name === 'AbortError')
      return new TransportError('ABORTED', 'the call was aborted', { url: this.url });
    if (name === 'TimeoutError' || /timeout/i.test(message)) {
      return new TransportError('TIMEOUT', `no NATS reply in time: ${message}`, {
        url: this.url,
        cause: error,
      });
    }
    return new TransportError('NETWORK', `NATS: ${message}`, { url: this.url, cause: error });
  }
}

/** The transport factory of {@link NatsTransport}. */
export function natsTransport(options: TransportOptions): NatsTransport {
  return new NatsTransport(options);
}

function parseJson(data: Uint8Array): unknown {
  try {
    return data.length === 0 ? undefined : JSON.parse(decoder.decode(data));
  } catch {
    return undefined;
  }
}

function abortable<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  if (signal.aborted)
    return Promise.reject(Object.assign(new Error('aborted'), { name: 'AbortError' }));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(Object.assign(new Error('aborted'), { name: 'AbortError' }));
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

async function withTimeout<T>(
  work: Promise<T>,
  ms: number,
  signal: AbortSignal | undefined,
): Promise<T | 'timeout'> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), ms);
  });
  try {
    return await abortable(Promise.race([work, timeout]), signal);
  } finally {
    clearTimeout(timer);
  }
}
