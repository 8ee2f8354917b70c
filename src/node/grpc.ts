/**
 * serve()'s gRPC listener: the gRPC binding (spec §10) on its own port next to the HTTP server.
 * The binding is imported on demand, so @grpc/grpc-js and @grpc/proto-loader stay optional peers.
 */
import { createServer } from 'node:net';
import { MissingDependencyError } from '../core/missing-dependency.js';
import type { AgentInterface } from '../core/schemas/index.js';
import type { InternalErrorReporter } from '../core/errors.js';
import type { A2AService } from '../core/service.js';
import type { GrpcGateCall } from '../bindings/grpc/auth-gate.js';
import type { Principal } from '../core/call-context.js';

/** Where serve() runs gRPC. */
export interface GrpcListenOptions {
  /** Port to listen on (default 0: any free port). */
  port?: number | undefined;
  /** Interface to bind (default: the HTTP server's host). */
  host?: string | undefined;
  /** The `host:port` the card advertises (behind a proxy); default the listening address. */
  url?: string | undefined;
}

/** A running gRPC listener. */
export interface GrpcListener {
  /** `host:port`, as the card lists it. */
  readonly url: string;
  /** The card entry: protocolBinding GRPC, url `host:port`, protocolVersion 1.0. */
  readonly agentInterface: AgentInterface;
  /** The entries of the older versions served on the same port (0.3 with `compat: ['0.3']`). */
  readonly compatInterfaces: readonly AgentInterface[];
  /** Stops at once, cutting open streams, like the HTTP side of serve(). */
  close(): Promise<void>;
}

/** The gRPC listener of serve() could not start (`code` EADDRINUSE: the port is taken). */
export class GrpcListenError extends Error {
  override readonly name = 'GrpcListenError';
  readonly code: string | undefined;

  constructor(
    readonly host: string,
    readonly port: number,
    cause: unknown,
  ) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(`cannot serve gRPC on ${host}:${port}: ${reason}`, { cause });
    // grpc-js reports "No address added ... errors: [listen EADDRINUSE ...]".
    this.code = reason.includes('EADDRINUSE') ? 'EADDRINUSE' : undefined;
  }
}

/**
 * What serve() hands the gRPC binding: its service options, the address and TLS. Written out
 * here, structurally, rather than imported from the binding, so the declarations of
 * `a2a-kit/node` never name a grpc-js type (a user without @grpc/grpc-js still type-checks
 * with `skipLibCheck: false`).
 */
export interface GrpcStartOptions {
  host: string;
  port: number;
  onError?: InternalErrorReporter | undefined;
  authenticate?: ((call: GrpcGateCall) => Promise<Principal | undefined>) | undefined;
  /** grpc-js server options (`grpc.keepalive_time_ms`, …). */
  channelOptions?: Record<string, string | number> | undefined;
  tls?:
    | {
        cert: string | Uint8Array;
        key: string | Uint8Array;
        ca?: string | Uint8Array | undefined;
        requireClientCert?: boolean | undefined;
      }
    | undefined;
}

/** What serve() uses of the gRPC binding's serve module (bindings/grpc/serve.ts). */
export interface GrpcModule {
  serveGrpc(
    service: A2AService,
    options: GrpcStartOptions,
  ): Promise<{
    readonly port: number;
    agentInterface(): AgentInterface;
    compatInterfaces(): AgentInterface[];
    close(graceMs?: number): Promise<void>;
  }>;
}

/** The gRPC binding's serve module, or an error that says what to install. */
export async function loadGrpc(): Promise<GrpcModule> {
  try {
    return await import('../bindings/grpc/serve.js');
  } catch (error) {
    throw new MissingDependencyError(
      {
        packages: ['@grpc/grpc-js', '@grpc/proto-loader'],
        feature: 'Serving gRPC',
        install: 'npm install @grpc/grpc-js @grpc/proto-loader',
        instead: 'or serve without gRPC: --no-grpc',
      },
      error,
    );
  }
}

/** Starts `service` over gRPC; `options` is serve()'s `grpc` option. */
export async function startGrpc(
  module: GrpcModule,
  service: A2AService,
  options: GrpcListenOptions | true,
  defaults: Omit<GrpcStartOptions, 'port'>,
): Promise<GrpcListener> {
  const { host: defaultHost, ...serviceOptions } = defaults;
  const settings = options === true ? {} : options;
  const host = settings.host ?? defaultHost;
  const port = settings.port ?? 0;
  let handle: Awaited<ReturnType<GrpcModule['serveGrpc']>>;
  try {
    // A taken port is found before grpc-js tries it, which would log its own line to stderr.
    if (port !== 0) await probePort(host, port);
    handle = await module.serveGrpc(service, { ...serviceOptions, host, port });
  } catch (error) {
    throw new GrpcListenError(host, port, error);
  }
  const url = settings.url ?? `${advertisedHost(host)}:${handle.port}`;
  return {
    url,
    agentInterface: { ...handle.agentInterface(), url },
    compatInterfaces: handle.compatInterfaces().map((entry) => ({ ...entry, url })),
    close: () => handle.close(0),
  };
}

/** A wildcard bind is reached through loopback; IPv6 literals need brackets. */
function advertisedHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

/** Resolves when `host:port` can be listened on (and releases it at once); else rejects. */
function probePort(host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve()));
  });
}
