/**
 * One HTTP request/response (through fetch or the dispatcher under it: http-send.ts), with the
 * call timeout, the caller's AbortSignal and a stream idle timeout, and failures classified as
 * {@link TransportError}s. Shared by the HTTP bindings' clients and the card resolver.
 */
import type { z } from 'zod';
import { PROTOCOL_VERSION } from '../core/interfaces.js';
import { describeViolations, fieldViolations } from '../core/validate.js';
import {
  DEADLINE_PASSED,
  releaseDeadline,
  SHARED_FROM_MS,
  sharedDeadline,
} from './deadline-signal.js';
import { TransportError } from './errors.js';
import { send, type ReplyHead, type ReplyHeaders, type SentReply } from './http-send.js';
import { DEFAULT_MAX_REPLY_BYTES } from './reply-limit.js';
import { isTrustedResult } from './trusted-results.js';

/** What to send. */
export interface HttpRequest {
  url: string;
  method: 'GET' | 'POST' | 'DELETE';
  headers: Headers | Readonly<Record<string, string>>;
  body?: string | undefined;
  signal?: AbortSignal | undefined;
  /** Unary: whole exchange. Streams: until the response headers. */
  timeoutMs: number;
  fetch?: typeof fetch | undefined;
  /**
   * Only `text()` or `close()` will be called (no idle timeout to re-arm): without a caller's
   * signal the deadline may then use a shared signal (deadline-signal.ts).
   */
  unary?: boolean | undefined;
  /**
   * Send through the dispatcher fetch uses, where the runtime has one, not through fetch itself
   * (http-send.ts): the A2A calls of the HTTP bindings. Ignored when `fetch` is given.
   */
  direct?: boolean | undefined;
  /** Largest body `text()` reads, in bytes (default DEFAULT_MAX_REPLY_BYTES, reply-limit.ts). */
  maxReplyBytes?: number | undefined;
}

/** An open response; call exactly one of `text`, `chunks` or `close`. */
export interface HttpExchange {
  readonly response: ReplyHead;
  readonly url: string;
  /** The whole body, within the call timeout. */
  text(): Promise<string>;
  /** The body as it arrives; `TIMEOUT` after `idleMs` without a byte. */
  chunks(idleMs: number): AsyncGenerator<Uint8Array>;
  /** Releases the exchange without reading the body. */
  close(): void;
}

/** Sends the request; rejects with NETWORK, TIMEOUT or ABORTED when no response arrives. */
export async function openExchange(request: HttpRequest): Promise<HttpExchange> {
  const { url, signal } = request;
  if (signal?.aborted) throw aborted(url, signal.reason);
  if (request.unary === true && signal === undefined && request.timeoutMs >= SHARED_FROM_MS) {
    return unaryExchange(request);
  }
  const controller = new AbortController();
  const onAbort = () => controller.abort(aborted(url, signal?.reason));
  signal?.addEventListener('abort', onAbort, { once: true });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const arm = (ms: number, message: string) => {
    clearTimeout(timer);
    timer = setTimeout(() => controller.abort(new TransportError('TIMEOUT', message, { url })), ms);
  };
  const cleanup = () => {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  };
  arm(request.timeoutMs, `no reply from ${url} within ${request.timeoutMs} ms`);

  let reply: SentReply;
  try {
    reply = await send(request, controller.signal);
  } catch (error) {
    cleanup();
    throw classify(error, controller.signal, url, 'connect');
  }

  return {
    response: reply.head,
    url,
    async text() {
      try {
        return await reply.text(request.maxReplyBytes ?? DEFAULT_MAX_REPLY_BYTES);
      } catch (error) {
        throw classify(error, controller.signal, url, 'read');
      } finally {
        cleanup();
      }
    },
    async *chunks(idleMs: number) {
      const reader = reply.reader();
      if (!reader) {
        cleanup();
        return;
      }
      let done = false;
      try {
        for (;;) {
          arm(idleMs, `stream from ${url} silent for ${idleMs} ms`);
          let next: Awaited<ReturnType<typeof reader.read>>;
          try {
            next = await reader.read();
          } catch (error) {
            throw classify(error, controller.signal, url, 'read');
          }
          if (next.done) {
            done = true;
            return;
          }
          yield next.value;
        }
      } finally {
        cleanup();
        if (!done) await reader.cancel().catch(() => undefined);
      }
    },
    close() {
      cleanup();
      reply.discard();
    },
  };
}

/**
 * The hot path of a unary call without a caller's signal: the deadline is a shared signal (one
 * AbortController and timer per few calls, not per call), handed back when the exchange is over.
 */
async function unaryExchange(request: HttpRequest): Promise<HttpExchange> {
  const { url, timeoutMs } = request;
  const deadline = sharedDeadline(timeoutMs);
  const { signal } = deadline;
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    releaseDeadline(deadline);
  };
  const timeout = (error: unknown) =>
    signal.aborted && signal.reason === DEADLINE_PASSED
      ? new TransportError('TIMEOUT', `no reply from ${url} within ${timeoutMs} ms`, { url })
      : error;
  let reply: SentReply;
  try {
    reply = await send(request, signal);
  } catch (error) {
    release();
    throw classify(timeout(error), signal, url, 'connect');
  }
  return {
    response: reply.head,
    url,
    async text() {
      try {
        return await reply.text(request.maxReplyBytes ?? DEFAULT_MAX_REPLY_BYTES);
      } catch (error) {
        throw classify(timeout(error), signal, url, 'read');
      } finally {
        release();
      }
    },
    // eslint-disable-next-line require-yield -- a unary exchange has no chunks
    async *chunks() {
      throw new Error('a unary exchange is read with text()');
    },
    close() {
      release();
      reply.discard();
    },
  };
}

function aborted(url: string, reason: unknown): TransportError {
  return new TransportError('ABORTED', `call to ${url} aborted`, { url, cause: reason });
}

const NETWORK_CODES: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'DNS lookup failed',
  ECONNRESET: 'connection reset',
  ETIMEDOUT: 'connection timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  UND_ERR_SOCKET: 'connection closed by the server',
  UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
};

/** Maps a fetch or body-read failure to a TransportError. */
function classify(
  error: unknown,
  signal: AbortSignal,
  url: string,
  phase: 'connect' | 'read',
): TransportError {
  if (error instanceof TransportError) return error;
  if (signal.aborted && signal.reason instanceof TransportError) return signal.reason;
  const code = causeCode(error);
  const why = (code && NETWORK_CODES[code]) ?? reason(error);
  const message =
    phase === 'connect'
      ? `cannot reach ${url}: ${why}${code ? ` (${code})` : ''}`
      : `connection to ${url} lost while reading the reply: ${why}`;
  return new TransportError('NETWORK', message, { url, cause: error });
}

/** What went wrong: fetch's own message says only `fetch failed`, its cause says what failed. */
function reason(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const { cause } = error as { cause?: unknown };
  return error.message === 'fetch failed' && cause instanceof Error ? cause.message : error.message;
}

function causeCode(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e && depth < 4; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/** The media type of a response, lower-cased, without parameters (`application/json`). */
export function mediaType(response: ReplyHead): string {
  return (response.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/** True for `application/json` and every `+json` type (`application/a2a+json`). */
export function isJsonType(type: string): boolean {
  return type === 'application/json' || type.endsWith('+json');
}

/** `Retry-After` in milliseconds (delta-seconds or an HTTP date), if present and valid. */
export function retryAfterMs(headers: ReplyHeaders, now: number = Date.now()): number | undefined {
  const value = headers.get('retry-after')?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** The start of a body, for error messages. */
export function snippet(text: string, max = 160): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

/** Parses JSON text or throws BAD_RESPONSE naming what arrived. */
export function parseJsonBody(text: string, what: string, url: string, status?: number): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new TransportError(
      'BAD_RESPONSE',
      `${what} from ${url} is not valid JSON: ${snippet(text)}`,
      {
        url,
        cause: error,
        ...(status !== undefined ? { status } : {}),
      },
    );
  }
}

/**
 * Validates a peer's result with `schema`, or throws BAD_RESPONSE saying what is wrong. A result
 * in the form a 1.0 server writes passes the fast check of trusted-results.ts and is returned as
 * is; everything else goes through the schema.
 */
export function checkResult<S extends z.ZodType>(
  schema: S,
  value: unknown,
  what: string,
  url: string,
): z.output<S> {
  if (isTrustedResult(schema, value)) return value as z.output<S>;
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const violations = fieldViolations(parsed.error);
  throw new TransportError(
    'BAD_RESPONSE',
    `invalid ${what} from ${url}: ${describeViolations(violations)}`,
    {
      url,
      cause: parsed.error,
    },
  );
}

const STATUS_HINTS: Record<number, string> = {
  401: 'authentication required: pass credentials (bearer token or API key)',
  403: 'permission denied for these credentials',
  404: 'nothing at this URL: check the interface URL',
  429: 'rate limited',
  502: 'bad gateway',
  503: 'service unavailable',
  504: 'gateway timeout',
};

/** A BAD_STATUS error for a reply that carries no A2A error, with `Retry-After` and a hint. */
export function badStatus(
  response: ReplyHead,
  url: string,
  body: string,
  message?: string,
): TransportError {
  const { status } = response;
  const hint = STATUS_HINTS[status];
  const detail = message ?? (body ? snippet(body) : '');
  const retryAfter = retryAfterMs(response.headers);
  return new TransportError(
    'BAD_STATUS',
    `${url} answered HTTP ${status}${hint ? ` (${hint})` : ''}${detail ? `: ${detail}` : ''}`,
    { url, status, ...(retryAfter !== undefined ? { retryAfterMs: retryAfter } : {}) },
  );
}

/** What goes into the headers of one A2A call. */
export interface HeaderParts {
  /** Transport-wide headers, then per-call headers (later wins, case-insensitively). */
  layers: readonly (Record<string, string> | undefined)[];
  accept: string;
  contentType?: string | undefined;
  lastEventId?: string | undefined;
  /** Send no `A2A-Version` (a 0.3 call: 0.3 has no such header, spec §3.6.2). */
  noVersion?: boolean | undefined;
}

/**
 * The headers of an A2A call: `A2A-Version: 1.0` on every request (spec §3.6.1, requirement 28 of test/conformance/requirements.ts),
 * Accept, Content-Type, `Last-Event-ID`; caller headers may override any of them.
 */
export function buildHeaders(parts: HeaderParts): Headers {
  const headers = new Headers({ Accept: parts.accept });
  if (parts.noVersion !== true) headers.set('A2A-Version', PROTOCOL_VERSION);
  if (parts.contentType) headers.set('Content-Type', parts.contentType);
  if (parts.lastEventId !== undefined) headers.set('Last-Event-ID', parts.lastEventId);
  for (const layer of parts.layers) {
    for (const [name, value] of Object.entries(layer ?? {})) headers.set(name, value);
  }
  return headers;
}

/** `url` with extra query parameters appended. */
export function withQuery(url: string, query: Record<string, string> | undefined): string {
  if (!query || Object.keys(query).length === 0) return url;
  const u = new URL(url);
  for (const [name, value] of Object.entries(query)) u.searchParams.append(name, value);
  return u.toString();
}

/** `text` parsed as JSON, or undefined when it is not JSON (for reading error bodies). */
export function tryJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
