/**
 * The NATS binding (docs/bindings/nats.md) spoken with the raw NATS client, not our transport:
 * requests on `<prefix>.<Operation>` with service parameters as headers, unary replies and
 * error bodies (the google.rpc.Status JSON of HTTP+JSON), streams on an inbox whose messages are
 * acked one by one. `a2a-last-event-id` carries `lastEventId`; `raw` sends any bytes as the request
 * of an operation. HTTP-only options (query, verb) are refused: restrict such tests to HTTP.
 */
import {
  connect,
  headers as natsHeaders,
  type Msg,
  type MsgHdrs,
  type NatsConnection,
  type Subscription,
} from '@nats-io/transport-node';
import type {
  BindingDriver,
  CallOptions,
  CallResult,
  HeaderOverrides,
  LiveStream,
  OpenResult,
  RawReply,
  StreamEvent,
  StreamOptions,
  StreamResult,
} from './driver.js';
import { readStream } from './driver.js';
import {
  MalformedReply,
  record,
  restError,
  tryJson,
  type Operation,
  type StreamOperation,
  type WireError,
} from './wire.js';

/** Request headers: `a2a-version: 1.0`, then the overrides (lower-cased; `null` removes). */
function headersOf(overrides: HeaderOverrides = {}, lastEventId?: string): MsgHdrs {
  const values = new Map<string, string>([['a2a-version', '1.0']]);
  for (const [name, value] of Object.entries(overrides)) {
    const key = name.toLowerCase();
    if (key === 'content-type') throw new Error('content-type is HTTP framing, not a NATS header');
    if (value === null) values.delete(key);
    else values.set(key, value);
  }
  if (lastEventId !== undefined) values.set('a2a-last-event-id', lastEventId);
  const h = natsHeaders();
  for (const [key, value] of values) h.set(key, value);
  return h;
}

function refuseHttpOnly(options: CallOptions): void {
  const used = (['query', 'verb'] as const).filter((k) => options[k] !== undefined);
  if (used.length > 0)
    throw new Error(`NATS has no ${used.join(', ')}: restrict this test to the HTTP bindings`);
}

/** Reply headers as fetch Headers (lower-case names). */
function asHeaders(h: MsgHdrs | undefined): Headers {
  const out = new Headers();
  for (const key of h?.keys() ?? []) {
    if (/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(key)) out.set(key.toLowerCase(), h?.get(key) ?? '');
  }
  return out;
}

/** The error of an `a2a-kind: error` message: the HTTP+JSON error body, checked. */
function natsError(msg: Msg): WireError {
  const body = tryJson(new TextDecoder().decode(msg.data));
  const code = record(record(body, 'error body').error, 'error body "error"').code;
  if (typeof code !== 'number') throw new MalformedReply('error.code must be a number');
  const header = Number(msg.headers?.get('Nats-Service-Error-Code') ?? NaN);
  if (header !== code)
    throw new MalformedReply(`Nats-Service-Error-Code ${header} differs from error.code ${code}`);
  return { ...restError(body, code), binding: 'NATS' };
}

/** A driver for the NATS interface `nats://host:port/<prefix>`. */
export function natsDriver(url: string): BindingDriver & { close(): void } {
  const parsed = /^(nats:\/\/[^/]+)\/(.+)$/.exec(url);
  if (!parsed) throw new Error(`not a NATS interface URL: ${url}`);
  const [, server = '', prefix = ''] = parsed;
  let connection: Promise<NatsConnection> | undefined;
  const nc = () => (connection ??= connect({ servers: server }));
  const body = (params: object) => JSON.stringify(params);
  const replies = new Map<string, Msg>();

  const driver: BindingDriver & { close(): void } = {
    name: 'NATS',
    endpoint: url,
    async call(
      operation: Operation,
      params: object,
      options: CallOptions = {},
    ): Promise<CallResult> {
      refuseHttpOnly(options);
      const reply = await (
        await nc()
      ).request(`${prefix}.${operation}`, body(params), {
        headers: headersOf(options.headers),
        timeout: 10_000,
      });
      const headers = asHeaders(reply.headers);
      const kind = reply.headers?.get('a2a-kind');
      if (kind === 'error') return { ok: false, error: natsError(reply), headers };
      if (kind !== 'ok') throw new MalformedReply(`a reply of kind "${kind ?? ''}"`);
      const result = tryJson(new TextDecoder().decode(reply.data));
      if (result === undefined) throw new MalformedReply('the reply is not JSON');
      return { ok: true, result, httpStatus: 200, headers };
    },
    async open(
      operation: StreamOperation,
      params: object,
      options: StreamOptions = {},
    ): Promise<OpenResult> {
      refuseHttpOnly(options);
      const conn = await nc();
      const inbox = conn.subscribe(`_INBOX.${crypto.randomUUID().replace(/-/g, '')}`);
      conn.publish(`${prefix}.${operation}`, body(params), {
        reply: inbox.getSubject(),
        headers: headersOf(options.headers, options.lastEventId),
      });
      options.signal?.addEventListener('abort', () => inbox.unsubscribe(), { once: true });
      return NatsStream.open(inbox);
    },
    async stream(
      operation: StreamOperation,
      params: object,
      options: StreamOptions & { abortAfter?: number } = {},
    ): Promise<StreamResult> {
      return readStream(await driver.open(operation, params, options), options.abortAfter);
    },
    /** Any bytes as the request of operation `path` (the method is ignored): a raw NATS request. */
    async raw(
      _method: string,
      path: string,
      bytes?: string | Uint8Array,
      overrides?: HeaderOverrides,
    ): Promise<RawReply> {
      const reply = await (
        await nc()
      ).request(`${prefix}.${path.replace(/^\//, '')}`, bytes ?? '', {
        headers: headersOf(overrides),
        timeout: 10_000,
      });
      const text = new TextDecoder().decode(reply.data);
      const status =
        reply.headers?.get('a2a-kind') === 'error'
          ? Number(reply.headers?.get('Nats-Service-Error-Code'))
          : 200;
      replies.set(text, reply);
      return { status, headers: asHeaders(reply.headers), text, json: tryJson(text) };
    },
    parse(reply: RawReply): CallResult {
      const msg = replies.get(reply.text);
      if (!msg) throw new Error('parse() takes what raw() returned');
      if (msg.headers?.get('a2a-kind') === 'error')
        return { ok: false, error: natsError(msg), headers: reply.headers };
      return { ok: true, result: reply.json, httpStatus: 200, headers: reply.headers };
    },
    close: () => void connection?.then((c) => c.close()).catch(() => undefined),
  };
  return driver;
}

/** An inbox stream as a {@link LiveStream}; each message is acked when it is taken. */
class NatsStream implements LiveStream {
  headers = new Headers();
  error: WireError | undefined;
  readonly comments = 0;
  private ended = false;
  private readonly iterator: AsyncIterator<Msg>;

  private constructor(private readonly inbox: Subscription) {
    this.iterator = inbox[Symbol.asyncIterator]();
  }

  /** Waits for the `open` message (ok) or an `error` before it (the call was refused). */
  static async open(inbox: Subscription): Promise<OpenResult> {
    const stream = new NatsStream(inbox);
    const first = await stream.take(10_000);
    if (!first) throw new Error('the NATS stream closed before it opened');
    const kind = first.headers?.get('a2a-kind');
    if (kind === 'error') {
      inbox.unsubscribe();
      return { ok: false, error: natsError(first), headers: asHeaders(first.headers) };
    }
    if (kind !== 'open')
      throw new MalformedReply(`the first stream message is "${kind ?? ''}", not open`);
    stream.headers = asHeaders(first.headers);
    return { ok: true, stream };
  }

  async next(timeoutMs = 5000): Promise<StreamEvent | undefined> {
    for (;;) {
      if (this.ended) return undefined;
      const msg = await this.take(timeoutMs);
      if (!msg) return this.finish();
      const kind = msg.headers?.get('a2a-kind');
      if (kind === 'keepalive') continue;
      if (kind === 'end') return this.finish();
      if (kind === 'error') {
        this.error = natsError(msg);
        return this.finish();
      }
      if (kind !== 'event') throw new MalformedReply(`a stream message of kind "${kind ?? ''}"`);
      const event = tryJson(new TextDecoder().decode(msg.data));
      return { id: msg.headers?.get('a2a-seq') || undefined, event: record(event, 'stream event') };
    }
  }

  async rest(timeoutMs?: number): Promise<StreamEvent[]> {
    const events: StreamEvent[] = [];
    for (let e = await this.next(timeoutMs); e; e = await this.next(timeoutMs)) events.push(e);
    return events;
  }

  close(): void {
    this.finish();
  }

  /** The next message, acked; undefined when the inbox closed. */
  private async take(timeoutMs: number): Promise<Msg | undefined> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<'late'>(
      (resolve) => (timer = setTimeout(() => resolve('late'), timeoutMs)),
    );
    const next = await Promise.race([this.iterator.next(), late]).finally(() =>
      clearTimeout(timer),
    );
    if (next === 'late') throw new Error(`no NATS stream message within ${timeoutMs} ms`);
    if (next.done) return undefined;
    if (next.value.reply) next.value.respond();
    return next.value;
  }

  private finish(): undefined {
    this.ended = true;
    this.inbox.unsubscribe();
    return undefined;
  }
}
