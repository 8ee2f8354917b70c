/**
 * How a push request leaves the process. The default transport is node:http(s) with a `lookup`
 * that returns the address the SSRF guard vetted, so the socket connects to exactly that address
 * (no DNS rebinding between check and connect) while TLS still verifies the certificate for the
 * host name. Redirects are never followed: a 3xx is an answer like any other.
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import type { WebhookGuard } from './ssrf.js';
import { withFields } from '../core/with-fields.js';

/** One webhook POST. */
export interface PushRequest {
  readonly url: URL;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Uint8Array;
  readonly timeoutMs: number;
  /** Aborted when the notifier shuts down. */
  readonly signal: AbortSignal;
}

/** The part of the webhook's answer delivery decisions need. */
export interface PushResponse {
  readonly status: number;
  /** The `Retry-After` header, when sent. */
  readonly retryAfter?: string | undefined;
}

/** Sends one webhook POST; throws {@link TransportFailure} (or WebhookRefused) on no answer. */
export type PushTransport = (request: PushRequest) => Promise<PushResponse>;

/** Why a request got no HTTP answer; `invalid` (a header value the config made) is not retried. */
export type TransportFailureKind = 'timeout' | 'network' | 'aborted' | 'invalid';

/** A request that got no HTTP answer: timed out, could not connect, or was aborted. */
export class TransportFailure extends Error {
  override readonly name = 'TransportFailure';
  constructor(
    readonly kind: TransportFailureKind,
    message: string,
  ) {
    super(message);
  }
}

const MAX_DRAINED_BYTES = 64 * 1024;

/** The guarded node:http(s) transport, with keep-alive agents released by `close()`. */
export function guardedTransport(guard: WebhookGuard): PushTransport & { close(): void } {
  const agents = {
    http: new HttpAgent({ keepAlive: true, maxSockets: 16 }),
    https: new HttpsAgent({ keepAlive: true, maxSockets: 16 }),
  };
  const send: PushTransport = async (req) => {
    const target = await guard.target(req.url);
    const lookup: LookupFunction = (_hostname, options, callback) => {
      if (options.all) callback(null, [target]);
      else callback(null, target.address, target.family);
    };
    const https = req.url.protocol === 'https:';
    return exchange(req, (onResponse) =>
      (https ? httpsRequest : httpRequest)(
        req.url,
        {
          method: 'POST',
          headers: withFields(req.headers, { 'content-length': String(req.body.byteLength) }),
          agent: https ? agents.https : agents.http,
          lookup,
        },
        onResponse,
      ),
    );
  };
  return Object.assign(send, {
    close() {
      agents.http.destroy();
      agents.https.destroy();
    },
  });
}

type Start = (onResponse: (res: IncomingMessage) => void) => ReturnType<typeof httpRequest>;

function exchange(req: PushRequest, start: Start): Promise<PushResponse> {
  return new Promise<PushResponse>((resolve, reject) => {
    let settled = false;
    const timing: { timer?: ReturnType<typeof setTimeout> } = {};
    let request: ReturnType<Start> | undefined;
    const onAbort = () => request?.destroy(new TransportFailure('aborted', 'delivery aborted'));
    const finish = (result: PushResponse | Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timing.timer);
      req.signal.removeEventListener('abort', onAbort);
      if (result instanceof Error) reject(result);
      else resolve(result);
    };
    const onResponse = (res: IncomingMessage) => {
      const answer = { status: res.statusCode ?? 0, retryAfter: header(res, 'retry-after') };
      // Read (and discard) a bounded body so the connection can be reused.
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_DRAINED_BYTES) res.destroy();
      });
      res.on('end', () => finish(answer));
      res.on('close', () => finish(answer));
      res.on('error', () => finish(answer));
    };
    try {
      // Throws at once for header values Node refuses (CR/LF in a token).
      request = start(onResponse);
    } catch (error) {
      finish(describe(error instanceof Error ? error : new Error(String(error))));
      return;
    }
    const sent = request;
    timing.timer = setTimeout(() => {
      sent.destroy(new TransportFailure('timeout', `no answer within ${req.timeoutMs} ms`));
    }, req.timeoutMs);
    if (req.signal.aborted) onAbort();
    else req.signal.addEventListener('abort', onAbort, { once: true });
    sent.on('error', (error: Error) => finish(describe(error)));
    sent.end(req.body);
  });
}

function describe(error: Error): Error {
  if (error instanceof TransportFailure) return error;
  if (error.name === 'WebhookRefused') return error;
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ERR_INVALID_CHAR' || code === 'ERR_INVALID_HTTP_TOKEN') {
    return new TransportFailure('invalid', `the config makes an invalid request header (${code})`);
  }
  const what =
    code === 'ECONNREFUSED'
      ? 'connection refused'
      : code === 'ECONNRESET'
        ? 'connection reset'
        : error.message;
  return new TransportFailure('network', code ? `${what} (${code})` : what);
}

function header(res: IncomingMessage, name: string): string | undefined {
  const value = res.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * A transport over a fetch implementation, for runtimes or proxies that need one. The guard
 * still vets the URL and its addresses first, but fetch resolves the name again on its own, so
 * DNS rebinding protection is only as good as the network path (prefer the default transport).
 */
export function fetchTransport(fetchImpl: typeof fetch, guard: WebhookGuard): PushTransport {
  return async (req) => {
    await guard.target(req.url);
    const signal = AbortSignal.any([req.signal, AbortSignal.timeout(req.timeoutMs)]);
    let res: Response;
    try {
      res = await fetchImpl(req.url, {
        method: 'POST',
        headers: req.headers,
        body: new Uint8Array(req.body),
        redirect: 'manual',
        signal,
      });
    } catch (error) {
      if (req.signal.aborted) throw new TransportFailure('aborted', 'delivery aborted');
      if (signal.aborted) {
        throw new TransportFailure('timeout', `no answer within ${req.timeoutMs} ms`);
      }
      throw new TransportFailure('network', error instanceof Error ? error.message : String(error));
    }
    await res.body?.cancel().catch(() => undefined);
    return { status: res.status, retryAfter: res.headers.get('retry-after') ?? undefined };
  };
}
