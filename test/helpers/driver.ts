/**
 * The BindingDriver contract: one binding spoken raw (HTTP with fetch, gRPC with grpc-js; not our
 * client library), success and error replies normalised so one test body runs over every binding.
 */
import { SseReader, type SseMessage } from './sse.js';
import {
  mediaType,
  tryJson,
  type BindingName,
  type Operation,
  type StreamOperation,
  type WireError,
} from './wire.js';

/** Request headers (gRPC: metadata); `null` removes a default one (`{ 'A2A-Version': null }`). */
export type HeaderOverrides = Record<string, string | null>;

/** Options of one call. */
export interface CallOptions {
  headers?: HeaderOverrides;
  /** Extra query parameters (e.g. `A2A-Version`), on top of the request's own. */
  query?: Record<string, string>;
  /** HTTP+JSON: the verb for SubscribeToTask (default POST, as the official clients send). */
  verb?: 'GET' | 'POST';
  /** Aborts the request (the client goes away). */
  signal?: AbortSignal;
}

/** Options of one stream. */
export interface StreamOptions extends CallOptions {
  /** Sent as `Last-Event-ID` (SSE reconnection; gRPC: `last-event-id` metadata). */
  lastEventId?: string;
}

/** A normalised unary reply (gRPC: `headers` is the response metadata, `httpStatus` 200). */
export type CallResult =
  | {
      readonly ok: true;
      readonly result: unknown;
      readonly httpStatus: number;
      readonly headers: Headers;
    }
  | { readonly ok: false; readonly error: WireError; readonly headers: Headers };

/**
 * One stream event: its SSE `id:` line (gRPC: counted from the stream's `a2a-first-event-id`
 * metadata, docs/deployment.md) and its StreamResponse payload.
 */
export interface StreamEvent {
  readonly id: string | undefined;
  readonly event: Record<string, unknown>;
}

/** An open stream. */
export interface LiveStream {
  readonly headers: Headers;
  /** The next event; undefined when the stream closed (or ended with an error frame). */
  next(timeoutMs?: number): Promise<StreamEvent | undefined>;
  /** Every remaining event until the server closes the stream. */
  rest(timeoutMs?: number): Promise<StreamEvent[]>;
  /** The error frame that ended the stream, if one did. */
  readonly error: WireError | undefined;
  /** SSE comment lines (keep-alives) received so far. */
  readonly comments: number;
  /** Drops the connection, as a client that goes away. */
  close(): void;
}

export type OpenResult =
  | { readonly ok: true; readonly stream: LiveStream }
  | { readonly ok: false; readonly error: WireError; readonly headers: Headers };

/** A whole stream read to its end. */
export type StreamResult =
  | {
      readonly ok: true;
      readonly events: StreamEvent[];
      readonly headers: Headers;
      /** An error frame that ended the stream, if any. */
      readonly error: WireError | undefined;
    }
  | { readonly ok: false; readonly error: WireError; readonly headers: Headers };

/** A raw HTTP exchange. */
export interface RawReply {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  /** The body parsed as JSON, undefined when it is not JSON. */
  readonly json: unknown;
}

/** One binding under test. */
export interface BindingDriver {
  readonly name: BindingName;
  /** The binding's endpoint: JSON-RPC endpoint URL, HTTP+JSON base URL, gRPC `host:port`. */
  readonly endpoint: string;
  call(operation: Operation, params: object, options?: CallOptions): Promise<CallResult>;
  open(operation: StreamOperation, params: object, options?: StreamOptions): Promise<OpenResult>;
  /** Opens a stream and reads it to its end (or drops it after `abortAfter` events). */
  stream(
    operation: StreamOperation,
    params: object,
    options?: StreamOptions & { abortAfter?: number },
  ): Promise<StreamResult>;
  /** Sends anything to `endpoint + path`; the default headers apply unless overridden. */
  raw(
    method: string,
    path: string,
    body?: string | Uint8Array,
    headers?: HeaderOverrides,
  ): Promise<RawReply>;
  /** Normalises a raw reply like `call` does (`requestId`: the JSON-RPC id it must echo). */
  parse(reply: RawReply, requestId?: unknown): CallResult;
  /** Releases what the driver holds (a gRPC channel). */
  close?(): void;
}

/** Merges header overrides into defaults (`null` deletes). */
export function headersOf(defaults: Record<string, string>, overrides: HeaderOverrides = {}) {
  const headers = new Headers(defaults);
  for (const [name, value] of Object.entries(overrides)) {
    if (value === null) headers.delete(name);
    else headers.set(name, value);
  }
  return headers;
}

/** A fetch returning a {@link RawReply}. */
export async function rawFetch(
  url: string,
  init: {
    method: string;
    headers: Headers;
    body?: string | Uint8Array | undefined;
    signal?: AbortSignal | undefined;
  },
): Promise<RawReply> {
  const timeout = AbortSignal.timeout(10_000);
  const response = await fetch(url, {
    method: init.method,
    headers: init.headers,
    // A copy typed Uint8Array<ArrayBuffer>, which is what BodyInit accepts.
    body:
      typeof init.body === 'string' || init.body === undefined
        ? (init.body ?? null)
        : new Uint8Array(init.body),
    signal: init.signal ? AbortSignal.any([timeout, init.signal]) : timeout,
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, json: tryJson(text) };
}

/** How a binding turns one SSE message into an event or an error frame. */
export type SseDecoder = (message: SseMessage) => { event: StreamEvent } | { error: WireError };

/**
 * Opens an SSE request: a non-SSE reply is handed to `parse` (an error before the stream, or a
 * malformed reply); an SSE reply becomes a {@link LiveStream} decoded by `decode`.
 */
export async function openSse(
  url: string,
  init: { method: string; headers: Headers; body?: string | undefined },
  parse: (reply: RawReply) => CallResult,
  decode: SseDecoder,
): Promise<OpenResult> {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), 10_000);
  const response = await fetch(url, {
    method: init.method,
    headers: init.headers,
    body: init.body ?? null,
    signal: abort.signal,
  });
  clearTimeout(timer);
  if (mediaType(response.headers.get('content-type')) !== 'text/event-stream' || !response.body) {
    const text = await response.text();
    const reply = { status: response.status, headers: response.headers, text, json: tryJson(text) };
    const result = parse(reply);
    if (result.ok) throw new Error(`expected an SSE stream, got ${response.status}: ${text}`);
    return result;
  }
  return {
    ok: true,
    stream: new DecodedStream(response, new SseReader(response.body, abort), decode),
  };
}

class DecodedStream implements LiveStream {
  error: WireError | undefined;
  readonly headers: Headers;

  constructor(
    response: Response,
    private readonly reader: SseReader,
    private readonly decode: SseDecoder,
  ) {
    this.headers = response.headers;
  }

  get comments(): number {
    return this.reader.comments;
  }

  async next(timeoutMs?: number): Promise<StreamEvent | undefined> {
    if (this.error) return undefined;
    const message = await this.reader.next(timeoutMs);
    if (!message) return undefined;
    const decoded = this.decode(message);
    if ('error' in decoded) {
      this.error = decoded.error;
      return undefined;
    }
    return decoded.event;
  }

  async rest(timeoutMs?: number): Promise<StreamEvent[]> {
    const events: StreamEvent[] = [];
    for (let e = await this.next(timeoutMs); e; e = await this.next(timeoutMs)) events.push(e);
    return events;
  }

  close(): void {
    this.reader.close();
  }
}

/** `open` then read to the end, or drop after `abortAfter` events. */
export async function readStream(opened: OpenResult, abortAfter?: number): Promise<StreamResult> {
  if (!opened.ok) return opened;
  const { stream } = opened;
  const events: StreamEvent[] = [];
  for (;;) {
    if (abortAfter !== undefined && events.length >= abortAfter) {
      stream.close();
      break;
    }
    const event = await stream.next();
    if (!event) break;
    events.push(event);
  }
  return { ok: true, events, headers: stream.headers, error: stream.error };
}
