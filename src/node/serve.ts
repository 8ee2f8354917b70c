/**
 * `serve()`: one call from an Agent (or an A2AServer) to a listening node:http server with the
 * Agent Card, JSON-RPC and HTTP+JSON endpoints.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_MAX_BODY_BYTES } from '../http/handler.js';
import type { HttpHandler } from '../http/types.js';
import type * as InspectorModuleNs from '../inspector/handler.js';
import { clientTlsPem, tlsClientFetch } from './tls-fetch.js';

type InspectorModule = typeof InspectorModuleNs;
import { cardInterfaces, type A2AHandlerOptions } from '../bindings/a2a-handler.js';
import type { Agent } from '../server/agent.js';
import { A2AServer, type A2AServerOptions } from '../server/a2a-server.js';
import { loadGrpc, startGrpc, type GrpcListener, type GrpcListenOptions } from './grpc.js';
import { loadNats, natsAuthenticate, type NatsListenOptions } from './nats.js';
import { toNodeListener } from './listener.js';
import { accessControlOf, grpcSecurity, servedHandler } from './secure.js';
import { ServedDid, type ServeDidOptions } from './serve-did.js';
import {
  servedPush,
  type ServedPush,
  type ServePushOptions,
  type ServerPushOption,
} from './serve-push.js';
import type { AccessControl } from '../security/limits/access-control.js';
import { auditSignerOf, type SignCardOptions } from './signed-card.js';
import { createTlsServer, type TlsOptions } from './tls.js';
import {
  grpcServerOptions,
  httpServerOptions,
  limitConnections,
  resolveConnectionLimits,
  type ConnectionLimits,
} from './connections.js';

/** Options of {@link serve}: where to listen, the handler's options, and server options. */
export interface ServeOptions
  extends Omit<A2AHandlerOptions, 'baseUrl'>, Omit<A2AServerOptions, 'agent' | 'push'> {
  /** TCP port (default 0: any free port; read the result's `url`). */
  port?: number | undefined;
  /** Interface to bind (default `127.0.0.1`). */
  host?: string | undefined;
  /**
   * The public origin clients use (behind a proxy: `https://agent.example.com`); default the
   * listening address.
   */
  publicUrl?: string | undefined;
  /**
   * Also serve gRPC (spec §10) on its own port, listed third in the card: `true`, or where
   * (default: the HTTP host, any free port). Needs @grpc/grpc-js and @grpc/proto-loader.
   */
  grpc?: GrpcListenOptions | boolean | undefined;
  /**
   * Also answer over NATS (the custom binding of docs/bindings/nats.md), listed after gRPC in
   * the card. Needs @nats-io/transport-node.
   */
  nats?: NatsListenOptions | undefined;
  /** Serve HTTPS (and gRPC over TLS) with this certificate and key; see docs/security.md. */
  tls?: TlsOptions | undefined;
  /** Sign the card at start-up and publish the public key as a JWKS (spec §8.4). */
  signCard?: SignCardOptions | undefined;
  /**
   * Push notifications (spec §4.3; docs/push.md): the notifier's settings (`{ signer, allowHosts,
   * retry, … }`; serve() makes the notifier on `store`), or `{ notifier }` made yourself. The card
   * then advertises `pushNotifications`, and a signer's keys are served at PUSH_JWKS_PATH.
   */
  push?: ServePushOptions | ServerPushOption | undefined;
  /**
   * Timeouts and connection caps (defaults in `DEFAULT_CONNECTION_LIMITS`; see
   * docs/deployment.md): headers, whole request, keep-alive, idle reply, open connections in all
   * and per client address, how much of a refused body is drained, gRPC streams per connection.
   */
  connections?: ConnectionLimits | undefined;
  /**
   * Mount the web inspector (docs/inspector.md) at `/inspector`, opened on this agent. For
   * development: refused unless `host` is a loopback address, or `{ allowRemote: true }` forces
   * it (anyone who reaches the port can then use the inspector's credentials). Off by default.
   */
  inspector?: boolean | ServeInspectorOptions | undefined;
  /**
   * The agent's did:wba identity (docs/trust.md): its DID document is served at the path
   * the DID names and push deliveries are signed with its key (RFC 9421).
   */
  did?: ServeDidOptions | undefined;
}

/** Options of `serve({ inspector })`. */
export interface ServeInspectorOptions {
  /** Serve it on a non-loopback host too (forced; see {@link ServeOptions.inspector}). */
  allowRemote?: boolean | undefined;
  /** Where the built page files are (default: the package's own). */
  assetsDir?: string | URL | undefined;
}

/** A running server. */
export interface ServeResult {
  /** The base URL the card advertises (`http://127.0.0.1:PORT` or `publicUrl`). */
  url: string;
  server: A2AServer;
  httpServer: Server;
  /** The gRPC interface's `host:port`, when serving gRPC. */
  grpcUrl?: string | undefined;
  /** The NATS interface's `nats://host:port/<subject>`, when serving NATS. */
  natsUrl?: string | undefined;
  /** The agent's did:wba DID, when served with `did`. */
  did?: string | undefined;
  /** Stops listening, drops keep-alive sockets and open streams at once, releases the server. */
  close(): Promise<void>;
}

/** Serves an agent over node:http (card + JSON-RPC + HTTP+JSON) and resolves once listening. */
export async function serve(
  target: Agent | A2AServer,
  options: ServeOptions = {},
): Promise<ServeResult> {
  // Loaded before anything starts, so a missing optional peer leaves nothing to clean up.
  const grpcModule = options.grpc ? await loadGrpc() : undefined;
  const inspectorModule = await loadInspector(options.inspector, options.host ?? '127.0.0.1');
  const natsModule = options.nats ? await loadNats() : undefined;
  const owned = !(target instanceof A2AServer);
  if (!owned && options.push !== undefined) {
    throw new TypeError('serve(server, { push }): give push to the A2AServer you pass instead');
  }
  const did = options.did && new ServedDid(options.did);
  const signer = did?.requestSigner;
  const pushOptions =
    signer && options.push && !('notifier' in options.push) && !options.push.requestSigner
      ? { ...options.push, requestSigner: signer }
      : options.push;
  const push = await servedPush(pushOptions, options.store);
  let server: A2AServer;
  try {
    server =
      target instanceof A2AServer ? target : new A2AServer(serverOptions(target, options, push));
  } catch (error) {
    await push.push?.notifier.close?.(); // the notifier made above (an invalid card, say)
    throw error;
  }
  if (!owned && options.compat !== undefined && !sameVersions(options.compat, server.compat)) {
    throw new TypeError(
      'serve(server, { compat }): the A2AServer you pass has its own compat option; give compat to it',
    );
  }
  // One option for every binding: the server's (serve() passes its own to the server it makes).
  options = { ...options, compat: server.compat };
  const host = options.host ?? '127.0.0.1';
  let access: AccessControl;
  let limits: ReturnType<typeof resolveConnectionLimits>;
  try {
    limits = resolveConnectionLimits(options.connections, options.keepAliveMs);
    access = accessControlOf(server, options); // a card requiring unconfigured schemes fails here
  } catch (error) {
    if (owned) await server.close();
    throw error;
  }
  warnUnreachableIssuers(access, options.logger);
  // The request listener is attached once the address (and so the card's URLs) is known; the
  // continuation after `listen` runs before the event loop can deliver the first connection.
  const httpServer = options.tls
    ? createTlsServer(options.tls, httpServerOptions(limits))
    : createServer(httpServerOptions(limits));
  limitConnections(httpServer, limits, options.tls !== undefined);
  let grpc: GrpcListener | undefined;
  let nats: Awaited<ReturnType<NonNullable<typeof natsModule>['serveNats']>> | undefined;
  try {
    if (natsModule && options.nats) {
      const secured = grpcSecurity(server, access, undefined, options.middleware);
      nats = await natsModule.serveNats(secured.service, {
        ...options.nats,
        onError: options.onError,
        authenticate: natsAuthenticate(access),
      });
    }
    // gRPC first: nothing may be awaited between `listen` and attaching the request listener.
    if (grpcModule && options.grpc) {
      const secured = grpcSecurity(server, access, options.tls, options.middleware);
      grpc = await startGrpc(grpcModule, secured.service, options.grpc, {
        host,
        onError: options.onError,
        channelOptions: grpcServerOptions(limits),
        ...secured.options,
      });
    }
    await new Promise<void>((resolve, reject) => {
      httpServer.once('error', reject);
      httpServer.listen(options.port ?? 0, host, () => {
        httpServer.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    await grpc?.close();
    await nats?.close();
    if (owned) await server.close(); // e.g. EADDRINUSE: release what we created
    throw error;
  }
  const address = httpServer.address() as AddressInfo;
  const url = (
    options.publicUrl ??
    `${options.tls ? 'https' : 'http'}://${hostForUrl(address.address)}:${address.port}`
  ).replace(/\/+$/, '');
  const extraInterfaces = [
    ...(grpc ? [grpc.agentInterface] : []),
    ...(nats ? [nats.agentInterface()] : []),
    ...(options.extraInterfaces ?? []),
    ...(grpc ? grpc.compatInterfaces : []),
  ];
  server.setInterfaces(cardInterfaces(url, { ...options, extraInterfaces }));
  // The audit chain's heads are signed with the card key, verifiable with the card's JWKS.
  if (server.audited && options.signCard)
    server.setAuditSigner(auditSignerOf(options.signCard, url));
  const routes = { ...push.routes, ...did?.publish(url), ...options.routes };
  const served = servedHandler(server, {
    ...options,
    baseUrl: url,
    extraInterfaces,
    access,
    routes,
  });
  const handler = inspectorModule
    ? withInspector(served.handler, inspectorModule, url, options.inspector)
    : served.handler;
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const listener = toNodeListener(handler, {
    maxBodyBytes,
    idleTimeoutMs: limits.idleTimeoutMs,
    maxDrainBytes: limits.maxDrainBytes,
    drainTimeoutMs: limits.drainTimeoutMs,
  });
  httpServer.on('request', listener);
  // `Expect: 100-continue`: invite the body only when its declared size is acceptable, so an
  // oversized upload is refused before it is sent (RFC 9110 §10.1.1).
  httpServer.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
    if (!(Number(req.headers['content-length']) > maxBodyBytes)) res.writeContinue();
    listener(req, res);
  });

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> =>
    (closing ??= (async () => {
      const closed = new Promise<void>((resolve) => httpServer.close(() => resolve()));
      httpServer.closeAllConnections(); // idle keep-alive sockets and open SSE streams
      await Promise.all([closed, grpc?.close(), nats?.close()]);
      if (owned) await server.close();
    })());
  try {
    await served.ready; // the signed card, when asked for
  } catch (error) {
    await close();
    throw error;
  }
  return {
    url,
    server,
    httpServer,
    close,
    ...(grpc ? { grpcUrl: grpc.url } : {}),
    ...(nats ? { natsUrl: nats.url } : {}),
    ...(did?.identity ? { did: did.identity.did } : {}),
  };
}

/**
 * Fetches the token issuers' keys now, without delaying start-up, and warns about each that
 * cannot be reached: its tokens are answered 503 UNAVAILABLE (not 500) until it answers.
 */
function warnUnreachableIssuers(access: AccessControl, logger: ServeOptions['logger']): void {
  const log = logger === null ? undefined : (logger ?? console);
  void access.warmUp().then((problems) => {
    for (const problem of problems) {
      log?.warn(
        `a2a-kit: warning: cannot reach a token issuer (${problem}); requests with its tokens ` +
          'are answered 503 UNAVAILABLE with Retry-After until it answers',
      );
    }
  });
}

function serverOptions(agent: Agent, options: ServeOptions, push: ServedPush): A2AServerOptions {
  const result: A2AServerOptions = { agent };
  if (push.store !== undefined) result.store = push.store;
  if (options.bus !== undefined) result.bus = options.bus;
  if (options.exposeErrors !== undefined) result.exposeErrors = options.exposeErrors;
  if (options.logger !== undefined) result.logger = options.logger;
  if (options.ownership !== undefined) result.ownership = options.ownership;
  if (push.push !== undefined) result.push = push.push;
  if (options.idempotency !== undefined) result.idempotency = options.idempotency;
  if (options.memory !== undefined) result.memory = options.memory;
  if (options.interrupted !== undefined) result.interrupted = options.interrupted;
  if (options.generations !== undefined) result.generations = options.generations;
  if (options.log !== undefined) result.log = options.log;
  if (options.audit !== undefined) result.audit = options.audit;
  if (options.compat !== undefined) result.compat = options.compat;
  return result;
}

function sameVersions(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((v) => b.includes(v));
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|localhost|::1|\[::1\])$/;

/** Loads the inspector when asked for, refusing a non-loopback host unless forced. */
async function loadInspector(
  option: ServeOptions['inspector'],
  host: string,
): Promise<InspectorModule | undefined> {
  if (!option) return undefined;
  const forced = typeof option === 'object' && option.allowRemote === true;
  if (!LOOPBACK.test(host) && !forced) {
    throw new TypeError(
      `serve({ inspector }) is for development and refused on host "${host}": bind 127.0.0.1, ` +
        'or pass inspector: { allowRemote: true } to force it (its credentials are then open to the network)',
    );
  }
  return import('../inspector/handler.js');
}

/** Answers `/inspector…` with the inspector, everything else with the agent's handler. */
function withInspector(
  agent: HttpHandler,
  module: InspectorModule,
  url: string,
  option: ServeOptions['inspector'],
): HttpHandler {
  const settings = typeof option === 'object' ? option : {};
  const inspector = module.createInspector({
    mount: INSPECTOR_PATH,
    target: url,
    allowRemoteHosts: settings.allowRemote === true,
    tls: { connect: tlsClientFetch, pem: clientTlsPem },
    ...(settings.assetsDir !== undefined ? { assetsDir: settings.assetsDir } : {}),
  });
  return (request) => {
    const path = request.url.split('?')[0] ?? '';
    return path === INSPECTOR_PATH || path.startsWith(`${INSPECTOR_PATH}/`)
      ? inspector.handle(request)
      : agent(request);
  };
}

/** Where `serve({ inspector: true })` mounts the inspector. */
export const INSPECTOR_PATH = '/inspector';

/** IPv6 literals need brackets in URLs; a wildcard bind is reached through loopback. */
function hostForUrl(address: string): string {
  if (address === '0.0.0.0') return '127.0.0.1';
  if (address === '::') return '[::1]';
  return address.includes(':') ? `[${address}]` : address;
}
