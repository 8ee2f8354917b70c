/**
 * Server side of the NATS binding (docs/bindings/nats.md): an A2AServer answering on
 * `<prefix>.<Operation>` in a queue group (instances share the load). Unary operations are
 * request-reply; a stream sends each message as a request to the caller's inbox and waits for
 * its ack, so a slow client slows the stream instead of losing messages and a client that went
 * away is noticed (no responders). Nothing a request holds crashes the process: bad input gets
 * the spec's error, unexpected failures INTERNAL.
 */
import {
  headers as natsHeaders,
  type Msg,
  type MsgHdrs,
  type Subscription,
} from '@nats-io/transport-node';
import type { CallContext, HttpHeaders, Principal } from '../../core/call-context.js';
import {
  A2AError,
  ERROR_CATALOG,
  logInternalError,
  toA2AError,
  type InternalErrorReporter,
} from '../../core/errors.js';
import { PROTOCOL_VERSION } from '../../core/interfaces.js';
import { reportRefusal } from '../../core/refusal.js';
import {
  isOperationName,
  OPERATIONS,
  type OperationName,
  type StreamingOperationName,
} from '../../core/operations.js';
import type { AgentInterface } from '../../core/schemas/index.js';
import type { A2AService, StreamItem } from '../../core/service.js';
import { parseParams } from '../../core/validate.js';
import { statusJson } from '../../http/errors.js';
import { isSupportedVersion, SUPPORTED_VERSIONS } from '../../http/service-params.js';
import { openNats, type NatsConnectionOptions } from '../../stores/nats/connection.js';
import {
  checkSubjectPrefix,
  NATS_BINDING,
  NATS_HEADERS as H,
  natsUrl,
  type NatsMessageKind,
} from './wire.js';

/** Options of {@link serveNats}. */
export interface ServeNatsOptions extends NatsConnectionOptions {
  /** The agent's subject prefix (default `a2a`): requests arrive on `<prefix>.<Operation>`. */
  subject?: string | undefined;
  /** Queue group of the instances serving this agent (default `a2a`). */
  queue?: string | undefined;
  /** The server URL the card advertises (default: the first of `servers`). */
  advertisedServer?: string | undefined;
  /** Period of stream keep-alives (default 15 s). */
  keepAliveMs?: number | undefined;
  /** How long a stream message waits for the client's ack before the stream stops (default 30 s). */
  ackTimeoutMs?: number | undefined;
  onError?: InternalErrorReporter | undefined;
  /** Identifies the caller from the request headers (`authorization`, …); throw an A2AError to refuse. */
  authenticate?:
    | ((
        headers: HttpHeaders,
        context: CallContext,
      ) => Principal | undefined | Promise<Principal | undefined>)
    | undefined;
}

/** A running NATS listener. */
export interface NatsServerHandle {
  /** `nats://host:port/<prefix>`: the card interface URL. */
  readonly url: string;
  /** The card entry of this listener. */
  agentInterface(tenant?: string): AgentInterface;
  /** Stops taking requests (open streams end) and closes the connection if it is ours. */
  close(): Promise<void>;
}

const encoder = new TextEncoder();
// Fatal: invalid UTF-8 is refused, never replaced by U+FFFD.
const decoder = new TextDecoder('utf-8', { fatal: true });

/** Serves `service` (an A2AServer) over NATS. */
export async function serveNats(
  service: A2AService,
  options: ServeNatsOptions = {},
): Promise<NatsServerHandle> {
  const prefix = checkSubjectPrefix(options.subject ?? 'a2a');
  const { nc, owned } = await openNats(options);
  const onError = options.onError ?? logInternalError;
  const streams = new Set<AbortController>();
  const sub: Subscription = nc.subscribe(`${prefix}.*`, {
    queue: options.queue ?? 'a2a',
    callback: (error, msg) => {
      if (error || !msg.reply) return; // a request without reply subject cannot be answered
      const abort = new AbortController();
      streams.add(abort);
      handle(msg, abort.signal)
        .catch((e: unknown) => report(onError, e))
        .finally(() => streams.delete(abort));
    },
  });
  await nc.flush();
  // The last max payload the server announced (`info` is unset while reconnecting).
  let knownMax = nc.info?.max_payload ?? 1024 * 1024;
  const maxPayload = () => (knownMax = nc.info?.max_payload ?? knownMax);
  const servers = options.servers ?? 'nats://127.0.0.1:4222';
  const server =
    options.advertisedServer ?? (typeof servers === 'string' ? servers : servers[0]) ?? '';
  const url = natsUrl(server.split(',')[0] ?? server, prefix);

  // Requests refused before an observing middleware saw them are reported (core/refusal.ts).
  const observed = service.refused !== undefined;

  async function handle(msg: Msg, signal: AbortSignal): Promise<void> {
    const startedAt = observed ? performance.now() : 0;
    const name = msg.subject.slice(prefix.length + 1);
    let call: CallContext | undefined;
    try {
      if (!isOperationName(name)) {
        throw new A2AError('METHOD_NOT_FOUND', `Method not found: ${name.slice(0, 64)}`);
      }
      call = await context(msg.headers, signal);
      let body: unknown;
      let text: string;
      try {
        text = decoder.decode(msg.data);
      } catch {
        throw new A2AError('PARSE_ERROR', 'The request body is not valid UTF-8 (spec §5.6)');
      }
      try {
        body = msg.data.length === 0 ? {} : JSON.parse(text);
      } catch {
        throw new A2AError('PARSE_ERROR');
      }
      const params = withLastEventId(name, parseParams(name, body), msg.headers);
      call.tenant = (params as { tenant?: string }).tenant;
      if (OPERATIONS[name].streaming) {
        await pump(msg, service.stream(name as StreamingOperationName, params, call), call, signal);
        return;
      }
      const result = await service.invoke(name, params, call);
      reply(msg, 'ok', JSON.stringify(result ?? {}), call.activatedExtensions);
    } catch (error) {
      const failure = toA2AError(error, onError);
      if (observed) {
        const operation = isOperationName(name) ? name : undefined;
        const refused = call ?? { signal, protocolBinding: NATS_BINDING };
        reportRefusal(service, { operation, call: refused, error: failure, startedAt }, onError);
      }
      replyError(msg, failure);
    }
  }

  async function context(h: MsgHdrs | undefined, signal: AbortSignal): Promise<CallContext> {
    const version = (h?.get(H.version) ?? '').trim();
    if (!isSupportedVersion(version)) throw versionError(version);
    const call: CallContext = { signal, protocolBinding: NATS_BINDING };
    const extensions = (h?.get(H.extensions) ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter((s, i, all) => s !== '' && all.indexOf(s) === i);
    if (extensions.length > 0) call.requestedExtensions = extensions;
    const principal = await options.authenticate?.(headerView(h), call);
    if (principal !== undefined) call.principal = principal;
    return call;
  }

  /** Sends a unary reply; one over the max payload becomes PAYLOAD_TOO_LARGE. */
  function reply(
    msg: Msg,
    kind: NatsMessageKind,
    body: string,
    activated?: readonly string[],
  ): void {
    const data = encoder.encode(body);
    if (data.byteLength > maxPayload() - 1024) {
      replyError(msg, tooLarge(data.byteLength, maxPayload()));
      return;
    }
    msg.respond(data, { headers: messageHeaders(kind, activated) });
  }

  function replyError(msg: Msg, error: A2AError): void {
    try {
      msg.respond(encoder.encode(statusJson(error)), { headers: errorHeaders(error) });
    } catch (e) {
      report(onError, e);
    }
  }

  async function pump(
    msg: Msg,
    opening: Promise<AsyncIterable<StreamItem>>,
    call: CallContext,
    signal: AbortSignal,
  ): Promise<void> {
    const inbox = msg.reply as string;
    const source = await opening; // errors before the stream are plain error replies
    const iterator = source[Symbol.asyncIterator]();
    const keepAliveMs = options.keepAliveMs ?? 15_000;
    const timeout = options.ackTimeoutMs ?? 30_000;
    const send = async (kind: NatsMessageKind, body: Uint8Array, h = messageHeaders(kind)) => {
      // A request, not a publish: the client's ack paces the stream (slow consumers) and its
      // absence (no responders, timeout) means the client is gone.
      await nc.request(inbox, body, { headers: h, timeout });
    };
    try {
      await send('open', new Uint8Array(0), messageHeaders('open', call.activatedExtensions));
      let next = iterator.next();
      for (;;) {
        let timer: ReturnType<typeof setTimeout> | undefined;
        const tick = new Promise<'tick'>((resolve) => {
          timer = setTimeout(() => resolve('tick'), keepAliveMs);
        });
        const step = await Promise.race([next, tick]).finally(() => clearTimeout(timer));
        if (signal.aborted) return;
        if (step === 'tick') {
          await send('keepalive', new Uint8Array(0));
          continue;
        }
        if (step.done) break;
        next = iterator.next();
        const data = encoder.encode(JSON.stringify(step.value.event));
        if (data.byteLength > maxPayload() - 1024) {
          const error = tooLarge(data.byteLength, maxPayload());
          await send('error', encoder.encode(statusJson(error)), errorHeaders(error));
          return;
        }
        const h = messageHeaders('event');
        if (step.value.id !== undefined) h.set(H.seq, step.value.id);
        await send('event', data, h);
      }
      await send('end', new Uint8Array(0));
    } catch (error) {
      if (isGone(error)) return; // the client went away: the task goes on (spec §3.5.2)
      const a2a = toA2AError(error, onError);
      await send('error', encoder.encode(statusJson(a2a)), errorHeaders(a2a)).catch(
        () => undefined,
      );
    } finally {
      try {
        await iterator.return?.();
      } catch {
        // The stream already failed: nothing left to release.
      }
    }
  }

  return {
    url,
    agentInterface: (tenant) => ({
      url,
      protocolBinding: NATS_BINDING,
      protocolVersion: PROTOCOL_VERSION,
      ...(tenant !== undefined ? { tenant } : {}),
    }),
    close: async () => {
      sub.unsubscribe();
      for (const abort of streams) abort.abort();
      if (owned) await nc.close();
    },
  };
}

/** The headers of a reply or stream message of `kind`. */
function messageHeaders(kind: NatsMessageKind, activated?: readonly string[]): MsgHdrs {
  const h = natsHeaders();
  h.set(H.kind, kind);
  if (activated !== undefined && activated.length > 0) h.set(H.extensions, activated.join(', '));
  return h;
}

/** Error headers: the kind, and NATS micro's error code (the catalog's HTTP status) and text. */
function errorHeaders(error: A2AError): MsgHdrs {
  const h = messageHeaders('error');
  h.set(H.serviceErrorCode, String(ERROR_CATALOG[error.code].http));
  // Header values stay printable ASCII: the body carries the message as it is.
  h.set(H.serviceError, error.message.replace(/[^\x20-\x7e]+/g, '?').slice(0, 256));
  // Refusals carry their HTTP headers (`WWW-Authenticate` challenges, `Retry-After`), spec §12.6.
  for (const [name, value] of Object.entries(error.headers ?? {})) {
    h.set(name.toLowerCase(), value.replace(/[^\x20-\x7e]+/g, '?'));
  }
  return h;
}

function versionError(version: string): A2AError {
  const asked =
    version === '' ? 'no a2a-version (which means 0.3)' : `a2a-version ${version.slice(0, 64)}`;
  return new A2AError(
    'VERSION_NOT_SUPPORTED',
    `Protocol version not supported: the request carries ${asked}; this server supports ` +
      `${SUPPORTED_VERSIONS.join(', ')}. Send the header "${H.version}: ${PROTOCOL_VERSION}".`,
    { metadata: { requestedVersion: version, supportedVersions: SUPPORTED_VERSIONS.join(',') } },
  );
}

function tooLarge(bytes: number, max: number): A2AError {
  return new A2AError(
    'PAYLOAD_TOO_LARGE',
    `The reply is ${bytes} bytes, over the NATS max payload of ${max} bytes: fetch large artifacts over an HTTP interface (or raise max_payload)`,
    { metadata: { maxBytes: String(max) } },
  );
}

function withLastEventId<P extends object>(
  name: OperationName,
  params: P,
  h: MsgHdrs | undefined,
): P {
  const lastEventId = h?.get(H.lastEventId);
  return name === 'SubscribeToTask' && lastEventId ? { ...params, lastEventId } : params;
}

function headerView(h: MsgHdrs | undefined): HttpHeaders {
  return {
    get: (name) => {
      const values = h?.values(name) ?? [];
      return values.length === 0 ? null : values.join(', ');
    },
  };
}

/** True for the failures of a stream request that mean nobody listens on the inbox any more. */
function isGone(error: unknown): boolean {
  const name = (error as { name?: unknown } | null)?.name;
  const message = error instanceof Error ? error.message : '';
  return (
    name === 'NoRespondersError' ||
    name === 'TimeoutError' ||
    name === 'RequestError' ||
    /no responders|timeout|closed|disconnect/i.test(message)
  );
}

function report(onError: InternalErrorReporter, error: unknown): void {
  try {
    onError(error);
  } catch {
    // A failing reporter must not crash the server either.
  }
}
