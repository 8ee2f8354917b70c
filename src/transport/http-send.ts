/**
 * How an exchange's request goes out (http-exchange.ts): through fetch, or, for the A2A calls of
 * the HTTP bindings, straight to the dispatcher that fetch itself sends through where the runtime
 * has one (Node's built-in undici, found under the global symbol every undici copy shares). Same
 * connection pool, same proxy or TLS agent a program installed with `setGlobalDispatcher`, same
 * HTTP/1.1 on the wire; without fetch's WHATWG Request, Response and web streams around it, which
 * cost about three quarters of a small call's client CPU (docs/benchmarks.md, "The client's
 * calls without fetch's layers"). A reply that redirects is sent again through fetch, which
 * follows it as before; a request with a Host header of the caller's goes through fetch, which
 * sends its own. What fetch adds to a request that has none (User-Agent, Accept-Encoding) is
 * added, and a compressed reply decoded as fetch decodes it (reply-decoding.ts). Headers the
 * dispatcher refuses (`keep-alive`, `expect` …) fetch refuses too, with the same errors.
 * Runtime-neutral: with no global dispatcher (browsers, Deno, Bun, and Node until something
 * first loaded its fetch) or with a `fetch` of the caller's, fetch is used.
 */
import type { HttpRequest } from './http-exchange.js';
import { acceptEncoding, canDecode, decoded } from './reply-decoding.js';
import { boundedText, limitedText } from './reply-limit.js';
import { chunksOf } from './stream-chunks.js';
import { withFields } from '../core/with-fields.js';

/** The headers of a reply, as a binding reads them. */
export interface ReplyHeaders {
  /** The value of header `name` (any case), several values joined with `, `; null if absent. */
  get(name: string): string | null;
}

/** What a binding reads of a reply besides its body: a fetch Response is one. */
export interface ReplyHead {
  readonly status: number;
  /** Status 200–299. */
  readonly ok: boolean;
  readonly headers: ReplyHeaders;
}

/** A body read chunk by chunk, as a web stream reader reads it. */
export interface BodyReader {
  read(): Promise<{ done: true; value?: undefined } | { done: false; value: Uint8Array }>;
  cancel(): Promise<void>;
}

/** A reply whose head has arrived; its body is read once, by `text`, `reader` or `discard`. */
export interface SentReply {
  readonly head: ReplyHead;
  /** The whole body as text; a TransportError (BAD_RESPONSE) past `maxBytes` (reply-limit.ts). */
  text(maxBytes: number): Promise<string>;
  /** Undefined for a reply without a body. */
  reader(): BodyReader | undefined;
  discard(): void;
}

/** Sends `request` with `signal` (the call's deadline and the caller's abort). */
export function send(request: HttpRequest, signal: AbortSignal): Promise<SentReply> {
  if (request.direct === true && request.fetch === undefined && canDecode) {
    const dispatcher = globalDispatcher();
    if (dispatcher !== undefined) return sendDirect(dispatcher, request, signal);
  }
  return sendFetch(request, signal);
}

async function sendFetch(request: HttpRequest, signal: AbortSignal): Promise<SentReply> {
  const response = await (request.fetch ?? fetch)(request.url, {
    method: request.method,
    headers: request.headers,
    ...(request.body !== undefined ? { body: request.body } : {}),
    signal,
  });
  return {
    head: response,
    text: (maxBytes) => {
      const { body } = response;
      if (body === null) return response.text();
      return limitedText(response.headers, maxBytes, request.url, {
        whole: () => response.text(),
        chunks: () => chunksOf(body),
        stop: () => void body.cancel().catch(ignore),
      });
    },
    reader: () => response.body?.getReader() as BodyReader | undefined,
    discard: () => void response.body?.cancel().catch(() => undefined),
  };
}

/** What this module uses of undici's Dispatcher (its documented `request` API). */
export interface Dispatcher {
  request(options: {
    origin: string;
    path: string;
    method: string;
    headers: Readonly<Record<string, string>>;
    body?: string | undefined;
    signal?: AbortSignal | undefined;
  }): Promise<{
    statusCode: number;
    headers: Record<string, string | string[] | undefined>;
    body: DispatcherBody;
  }>;
}

export interface DispatcherBody extends AsyncIterable<Uint8Array> {
  text(): Promise<string>;
  /** Reads what is left (a little) to keep the connection, or closes it. */
  dump(): Promise<void>;
  destroy(error?: Error): void;
  on(event: 'error', listener: (error: unknown) => void): unknown;
}

const ignore = () => undefined;

/** Ends a body no one reads: the abort it reports is expected, not an uncaught error. */
function drop(body: DispatcherBody): void {
  body.on('error', ignore);
  body.destroy();
}

/** Where every copy of undici, Node's built-in one included, keeps the global dispatcher. */
const GLOBAL_DISPATCHER = Symbol.for('undici.globalDispatcher.1');

/** The dispatcher fetch sends through, once there is one and it offers `request`. */
export function globalDispatcher(): Dispatcher | undefined {
  const found = (globalThis as Record<symbol, unknown>)[GLOBAL_DISPATCHER];
  return typeof (found as Partial<Dispatcher> | undefined)?.request === 'function'
    ? (found as Dispatcher)
    : undefined;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** An `http:` or `https:` URL's origin and path with query (fetch takes anything else). */
function target(url: string): { origin: string; path: string } | undefined {
  const u = new URL(url);
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return undefined;
  if (u.username !== '' || u.password !== '') return undefined; // fetch refuses these
  return { origin: u.origin, path: u.pathname + u.search };
}

async function sendDirect(
  dispatcher: Dispatcher,
  request: HttpRequest,
  signal: AbortSignal,
): Promise<SentReply> {
  const to = target(request.url);
  const headers = to && wireHeaders(request.headers, to.origin);
  // fetch sends its own Host whatever the caller says; the dispatcher would send the caller's.
  if (to === undefined || headers === undefined) return sendFetch(request, signal);
  const reply = await dispatcher.request(
    withFields(to, { method: request.method, headers, body: request.body, signal }),
  );
  const { statusCode: status, body } = reply;
  if (REDIRECTS.has(status) && reply.headers.location !== undefined) {
    drop(body);
    return sendFetch(request, signal);
  }
  const head = {
    status,
    ok: status >= 200 && status < 300,
    headers: new RawHeaders(reply.headers),
  };
  // A reply without a body (204, 304) has nothing to decode, as for fetch.
  const decoding =
    status === 204 || status === 304 ? undefined : decoded(body, reply.headers['content-encoding']);
  if (decoding !== undefined) {
    return {
      head,
      text: (maxBytes) => boundedText(decoding, maxBytes, request.url, () => decoding.destroy()),
      reader: () => chunkReader(decoding, () => decoding.destroy()),
      discard: () => decoding.destroy(),
    };
  }
  return {
    head,
    text: (maxBytes) =>
      limitedText(head.headers, maxBytes, request.url, {
        whole: () => body.text(),
        chunks: () => body,
        stop: () => drop(body),
      }),
    reader: () => chunkReader(body, () => drop(body)),
    discard: () => void body.dump().catch(ignore),
  };
}

function chunkReader(body: AsyncIterable<Uint8Array>, end: () => void): BodyReader {
  const chunks = body[Symbol.asyncIterator]();
  return {
    read: () => chunks.next() as ReturnType<BodyReader['read']>,
    cancel: async () => end(),
  };
}

/** What fetch sends of its own when a request has none (`User-Agent: node`, Node's fetch's). */
const USER_AGENT = 'node';

/** The headers with fetch's defaults added, per caller record (the transport's are frozen, reused). */
const withDefaults = new WeakMap<object, { origin: string; headers: Record<string, string> }>();

/**
 * The request's headers for the dispatcher: the caller's, plus what fetch would add where the
 * caller set none (User-Agent, and an Accept-Encoding the reply is then decoded by); undefined
 * when the caller set Host (fetch then sends its own instead).
 */
function wireHeaders(
  given: HttpRequest['headers'],
  origin: string,
): Readonly<Record<string, string>> | undefined {
  const caller = given instanceof Headers ? record(given) : given;
  const known = withDefaults.get(caller);
  if (known?.origin === origin) return known.headers;
  let agent = false;
  let encoding = false;
  for (const name in caller) {
    const lower = name.toLowerCase();
    if (lower === 'host') return undefined;
    if (lower === 'user-agent') agent = true;
    else if (lower === 'accept-encoding') encoding = true;
  }
  // A copy made to take new members (core/with-fields.ts: a spread copy would get a class each).
  const headers: Record<string, string> = withFields(caller, {});
  if (!agent) headers['user-agent'] = USER_AGENT;
  if (!encoding) headers['accept-encoding'] = acceptEncoding(origin);
  if (Object.isFrozen(caller)) withDefaults.set(caller, { origin, headers });
  return headers;
}

function record(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => (out[name] = value));
  return out;
}

/** undici's reply headers (lower-cased names; a repeated header's values in an array). */
class RawHeaders implements ReplyHeaders {
  constructor(private readonly raw: Record<string, string | string[] | undefined>) {}

  get(name: string): string | null {
    const value = this.raw[name.toLowerCase()];
    if (value === undefined) return null;
    return typeof value === 'string' ? value : value.join(', ');
  }
}
