/**
 * One inspector's state, in its server process: the agent being inspected (its card report),
 * the credentials, one A2AClient per binding (built on the card, calls recorded by the wire log),
 * the timeline of every task event seen, and the push webhooks. The browser holds none of it.
 * Client certificates go on HTTP calls through the TLS fetch and on gRPC calls as PEM texts.
 */
import { A2AClient } from '../client/client.js';
import {
  COMPAT_TRANSPORTS,
  DEFAULT_BINDINGS,
  DEFAULT_TRANSPORTS,
} from '../client/default-transports.js';
import {
  grpc03TransportWith,
  grpcTransportWith,
  lazyGrpc03Transport,
  lazyGrpcTransport,
} from '../client/lazy-grpc.js';
import type { Interceptor } from '../client/interceptors.js';
import { isA2AError } from '../core/errors.js';
import type { AgentCard, StreamResponse } from '../core/schemas/index.js';
import { PUSH_JWKS_PATH } from '../push/jwks.js';
import type { ClientTlsPem } from '../transport/client-tls.js';
import { isTransportError } from '../transport/errors.js';
import type { EventStream, TransportOptions } from '../transport/transport.js';
import { authNeeds, CredentialStore, type AuthNeed, type ClientTlsFiles } from './auth.js';
import { cardReport, parseChoice, type CardReport } from './card-report.js';
import { PushHooks } from './push-hooks.js';
import { Timelines, type TimelineEvent } from './timeline.js';
import { maskBody, WireLog, type WireEntry } from './wire-log.js';

/** Unary operations the browser may ask for (client method names). */
export const UNARY = [
  'sendMessage',
  'getTask',
  'listTasks',
  'cancelTask',
  'createTaskPushNotificationConfig',
  'getTaskPushNotificationConfig',
  'listTaskPushNotificationConfigs',
  'deleteTaskPushNotificationConfig',
] as const;
/** Streaming operations the browser may ask for. */
export const STREAMING = ['sendStreamingMessage', 'subscribeToTask'] as const;

/** An error as the browser sees it; `needsAuth` when the agent asked for credentials. */
export interface CallError {
  readonly kind: 'a2a' | 'transport' | 'local';
  readonly code?: string | undefined;
  readonly status?: number | undefined;
  readonly message: string;
  readonly needsAuth: boolean;
}

/** Options of {@link InspectorSession}. */
export interface SessionOptions {
  /** The fetch the client and card reads go through (default global fetch). */
  readonly fetch?: typeof fetch | undefined;
  /** A TLS client presenting client certificates (mutual TLS, spec §7.4), and files to start with. */
  readonly tls?: InspectorTls | undefined;
}

/** How the inspector's server side presents client certificates (src/node/tls-fetch.ts in Node). */
export interface InspectorTls {
  /** A fetch presenting `files` (it reads them; throws, saying why, when it cannot). */
  readonly connect: (files: ClientTlsFiles) => typeof fetch;
  /**
   * The files' PEM texts for gRPC calls, which take contents, not a fetch (Node: `clientTlsPem`
   * of src/node/tls-fetch.ts). Without it, gRPC calls present no client certificate.
   */
  readonly pem?: ((files: ClientTlsFiles) => ClientTlsPem) | undefined;
  /** The files to use from the start (`a2a inspect --cert --key --cacert`). */
  readonly files?: ClientTlsFiles | undefined;
}

/** The state of one inspector. */
export class InspectorSession {
  readonly wire = new WireLog();
  readonly credentials: CredentialStore;
  readonly hooks = new PushHooks();
  readonly timelines = new Timelines();
  report: CardReport | undefined;
  agentUrl: string | undefined;
  private clients = new Map<string, A2AClient>();
  private readonly recorded: typeof fetch;
  private readonly plain: typeof fetch;
  private readonly tls: InspectorTls | undefined;
  private tlsFetch: typeof fetch | undefined;
  /** The PEM texts gRPC calls present, and their grpcurl options. */
  private grpcTls: { pem: ClientTlsPem; grpcurl: string[] } | undefined;

  constructor(options: SessionOptions = {}) {
    this.plain = options.fetch ?? globalThis.fetch;
    this.tls = options.tls;
    this.recorded = this.wire.fetch((input, init) => (this.tlsFetch ?? this.plain)(input, init));
    this.credentials = new CredentialStore(this.recorded, this.tls !== undefined);
    if (this.tls?.files) this.useClientTls(this.tls.files);
  }

  /** Uses these client certificate files for every call from now on (none: plain fetch). */
  useClientTls(files: ClientTlsFiles | undefined): void {
    const given = files && Object.values(files).some((v) => v !== undefined && v !== '');
    if (!given) {
      this.tlsFetch = undefined;
      this.grpcTls = undefined;
      this.credentials.clientTls = undefined;
      this.wire.curlOptions = [];
    } else {
      if (!this.tls) throw new Error('this inspector has no TLS client to present certificates');
      this.tlsFetch = this.tls.connect(files);
      const pem = this.tls.pem?.(files);
      this.grpcTls = pem && {
        pem,
        grpcurl: [
          ...(files.cert ? ['-cert', files.cert] : []),
          ...(files.key ? ['-key', files.key] : []),
          ...(files.ca ? ['-cacert', files.ca] : []),
        ],
      };
      this.credentials.clientTls = files;
      this.wire.curlOptions = [
        ...(files.cert ? ['--cert', files.cert] : []),
        ...(files.key ? ['--key', files.key] : []),
        ...(files.ca ? ['--cacert', files.ca] : []),
      ];
    }
    this.resetClients();
  }

  /** Reads the card of `url` and makes it the agent inspected. */
  async connect(url: string): Promise<CardReport> {
    const report = await cardReport(url, this.recorded);
    this.agentUrl = url;
    this.report = report;
    this.resetClients();
    if (report.card) {
      const { headers, query } = this.credentials.secretNames(report.card);
      this.wire.secretHeaders = new Set(headers);
      this.wire.secretQuery = new Set(query);
    }
    return report;
  }

  /** What the card's security schemes need, and what is set. */
  needs(): AuthNeed[] {
    return this.report?.card ? authNeeds(this.report.card, this.credentials) : [];
  }

  /** Sets the credentials of one scheme; for mutual TLS, the paths of its PEM files. */
  setCredentials(scheme: string, fields: Record<string, unknown>): AuthNeed[] {
    if (this.report?.card?.securitySchemes?.[scheme]?.mtlsSecurityScheme) {
      const path = (name: string) =>
        typeof fields[name] === 'string' && fields[name] !== '' ? fields[name] : undefined;
      const cert = path('cert');
      const key = path('key');
      // A CA given at start (--cacert) stays unless the form names another (Forget included).
      const ca = path('ca') ?? this.tls?.files?.ca;
      this.useClientTls(cert || key || ca ? { cert, key, ca } : undefined);
      return this.needs();
    }
    this.credentials.set(scheme, fields);
    this.resetClients();
    return this.needs();
  }

  /**
   * The client speaking `choice`, a picker value (`JSONRPC`, `JSONRPC@0.3`: card-report.ts
   * choiceOf); default the card's first usable interface, 1.0 before 0.3.
   */
  async client(choice?: string): Promise<A2AClient> {
    const card = this.card();
    const key = choice ?? '';
    const existing = this.clients.get(key);
    if (existing) return existing;
    const picked = choice ? parseChoice(choice) : undefined;
    const client = await A2AClient.connect(card, {
      fetch: this.recorded,
      transports: this.grpcTls ? this.transportsWithTls(this.grpcTls.pem) : DEFAULT_TRANSPORTS,
      ...(this.grpcTls ? { compatTransports: this.compatTransportsWithTls(this.grpcTls.pem) } : {}),
      // A picked binding alone, at its version (the 0.3 transports are filtered by it too).
      bindings: picked ? [picked.binding] : DEFAULT_BINDINGS,
      ...(picked ? { preferredBinding: picked.binding, protocolVersions: [picked.version] } : {}),
      interceptors: [...this.credentials.interceptors(card), this.grpcRecorder()],
      retries: { maxAttempts: 1 },
      resume: false,
    });
    this.clients.set(key, client);
    return client;
  }

  /** Runs one unary operation. */
  async call(
    operation: (typeof UNARY)[number],
    params: unknown,
    binding?: string,
  ): Promise<unknown> {
    const client = await this.client(binding);
    const method = client[operation].bind(client) as (request: unknown) => Promise<unknown>;
    const result = await method(params ?? {});
    this.noteResult(result);
    return result;
  }

  /** GetExtendedAgentCard (spec §3.1.11) with the credentials held. */
  async extendedCard(binding?: string): Promise<AgentCard> {
    const client = await this.client(binding);
    return client.getExtendedAgentCard();
  }

  /** Opens a stream; each event is put on its task's timeline before it is yielded. */
  async *stream(
    operation: (typeof STREAMING)[number],
    params: unknown,
    binding: string | undefined,
    signal: AbortSignal | undefined,
  ): AsyncIterable<TimelineEvent> {
    const client = await this.client(binding);
    const method = client[operation].bind(client) as (
      request: unknown,
      options?: { signal?: AbortSignal },
    ) => EventStream;
    const stream = method(params ?? {}, signal ? { signal } : {});
    for await (const event of stream) {
      yield this.timelines.add(event, stream.lastEventId);
    }
  }

  /** Registers the built-in webhook on `taskId` (spec §3.1.7) and returns the hook and config. */
  async registerPush(
    taskId: string,
    origin: string,
    hookPath: string,
    jwksUrl?: string,
    binding?: string,
  ) {
    const card = this.card();
    const jwks = jwksUrl ?? defaultJwks(card, this.agentUrl);
    const hook = this.hooks.add(taskId, origin, hookPath, jwks);
    const client = await this.client(binding);
    const config = await client.createTaskPushNotificationConfig({
      taskId,
      url: hook.url,
      token: hook.token,
    });
    return { hook: { ...hook, token: '•••' }, config: { ...config, token: '•••' } };
  }

  /** Wire entries after `after`. */
  wireSince(after: number): WireEntry[] {
    return this.wire.since(after);
  }

  private card(): AgentCard {
    const card = this.report?.card;
    if (!card) throw new Error('connect to an agent with a valid card first');
    return card;
  }

  /** The default transports, gRPC presenting `pem` on interfaces reached over TLS. */
  private transportsWithTls(pem: ClientTlsPem): typeof DEFAULT_TRANSPORTS {
    const withTls = grpcTransportWith({ tls: pem });
    return {
      ...DEFAULT_TRANSPORTS,
      GRPC: (options: TransportOptions) =>
        this.grpcOverTls(options.url) ? withTls(options) : lazyGrpcTransport(options),
    };
  }

  /** The 0.3 transports, gRPC presenting `pem` on interfaces reached over TLS. */
  private compatTransportsWithTls(pem: ClientTlsPem): typeof COMPAT_TRANSPORTS {
    const withTls = grpc03TransportWith({ tls: pem });
    const v03 = COMPAT_TRANSPORTS['0.3'] ?? {};
    return {
      ...COMPAT_TRANSPORTS,
      '0.3': {
        ...v03,
        GRPC: (options: TransportOptions) =>
          this.grpcOverTls(options.url) ? withTls(options) : lazyGrpc03Transport(options),
      },
    };
  }

  /**
   * Whether a gRPC interface is reached over TLS: a `https://` or `grpcs://` url, or a bare
   * `host:port` (as serve() lists it) of an agent whose card came over HTTPS.
   */
  private grpcOverTls(url: string): boolean {
    const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(url)?.[1]?.toLowerCase();
    if (scheme !== undefined) return scheme === 'https' || scheme === 'grpcs';
    return this.agentUrl?.toLowerCase().startsWith('https:') === true;
  }

  private resetClients(): void {
    for (const client of this.clients.values()) client.close();
    this.clients = new Map();
  }

  /** Tasks in results join the timelines (their state, so the timeline knows it). */
  private noteResult(result: unknown): void {
    if (typeof result !== 'object' || result === null) return;
    if ('task' in result && typeof result.task === 'object' && result.task !== null) {
      this.timelines.add({ task: result.task } as StreamResponse, undefined);
    }
  }

  /** gRPC calls do not go through fetch: record them per operation. */
  private grpcRecorder(): Interceptor {
    const open = new WeakMap<object, WireEntry>();
    return {
      before: (call) => {
        if (call.binding !== 'GRPC') return;
        const tls =
          this.grpcTls && this.grpcOverTls(call.url)
            ? this.grpcTls.grpcurl
            : /^(https|grpcs):\/\//i.test(call.url)
              ? []
              : undefined;
        open.set(
          call,
          this.wire.recordCall(call.binding, call.url, call.operation, call.request, tls),
        );
      },
      after: (outcome) => {
        const entry = open.get(outcome.call);
        if (!entry) return;
        const text =
          maskBody(
            JSON.stringify('error' in outcome ? describeError(outcome.error) : outcome.result),
          ) ?? '';
        if ('error' in outcome) entry.error = describeError(outcome.error).message;
        else if (entry.frames.length > 0 || isEvent(outcome.result)) {
          entry.frames.push({ time: Date.now(), text });
        } else entry.responseBody = text;
        entry.status ??= 'error' in outcome ? undefined : 0;
      },
    };
  }
}

function isEvent(value: unknown): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    ('statusUpdate' in value || 'artifactUpdate' in value)
  );
}

/** The push JWKS the agent publishes (spec §13.2; a2a-kit serves it at PUSH_JWKS_PATH). */
function defaultJwks(card: AgentCard, agentUrl: string | undefined): string | undefined {
  const base = card.supportedInterfaces[0]?.url ?? agentUrl;
  return base ? new URL(PUSH_JWKS_PATH, base).href : undefined;
}

/** TLS alerts of a server refusing the client certificate, or its absence (RFC 8446 §6.2). */
const TLS_CERT_ALERT =
  /alert (certificate required|bad certificate|unknown ca|certificate unknown)/i;

/** Any error as the browser sees it. */
export function describeError(error: unknown): CallError {
  if (isA2AError(error)) {
    return {
      kind: 'a2a',
      code: error.code,
      message: error.message,
      needsAuth: error.code === 'UNAUTHENTICATED',
    };
  }
  if (isTransportError(error)) {
    return {
      kind: 'transport',
      code: error.code,
      status: error.status,
      message: error.message,
      // 401, or a TLS handshake the agent ended for want of a trusted client certificate
      // (gRPC over TLS asks for it there: spec §7.4).
      needsAuth: error.status === 401 || TLS_CERT_ALERT.test(error.message),
    };
  }
  return {
    kind: 'local',
    message: error instanceof Error ? error.message : String(error),
    needsAuth: false,
  };
}
