/**
 * Runs the gRPC binding on its own port with one call (next to any HTTP server): 1.0's
 * `lf.a2a.v1.A2AService`, and with `compat: ['0.3']` also 0.3's `a2a.v1.A2AService` on the same
 * port over the same service (v03-server.ts).
 */
import { Server, ServerCredentials, type ChannelOptions } from '@grpc/grpc-js';
import { PROTOCOL_VERSION } from '../../core/interfaces.js';
import type { AgentInterface } from '../../core/schemas/index.js';
import type { A2AService, CompatVersion } from '../../core/service.js';
import { V03_VERSION } from '../v03/wire.js';
import { createGrpcService, type GrpcServiceOptions } from './server.js';
import { createGrpcService03 } from './v03-server.js';
import { GRPC_BINDING } from './wire.js';

/** Options of {@link serveGrpc}. */
export interface ServeGrpcOptions extends GrpcServiceOptions {
  /** Port to listen on; 0 (the default) picks a free one. */
  port?: number | undefined;
  /** Interface to bind (default `127.0.0.1`). */
  host?: string | undefined;
  /** TLS or insecure (default insecure: put TLS in front, or pass `ServerCredentials.createSsl`). */
  credentials?: ServerCredentials | undefined;
  /**
   * TLS from PEM text, when `credentials` is not given. `requireClientCert` makes the handshake
   * demand a client certificate issued by `ca` (mutual TLS; grpc-js cannot ask optionally).
   */
  tls?:
    | {
        cert: string | Uint8Array;
        key: string | Uint8Array;
        ca?: string | Uint8Array | undefined;
        requireClientCert?: boolean | undefined;
      }
    | undefined;
  /** grpc-js channel options (message size limits, keepalive, ...). */
  channelOptions?: ChannelOptions | undefined;
  /**
   * Older versions to serve next to 1.0: `['0.3']` adds the 0.3 service `a2a.v1.A2AService`.
   * Default: the service's own (A2AServer's `compat`).
   */
  compat?: readonly CompatVersion[] | undefined;
}

/** A running gRPC server. */
export interface GrpcServerHandle {
  /** `host:port`: the `url` of the card's GRPC interface. */
  readonly url: string;
  readonly port: number;
  /** The grpc-js server, to add more services. */
  readonly server: Server;
  /** The card entry for this server (spec §8.3: `protocolBinding` GRPC, url `host:port`). */
  agentInterface(tenant?: string): AgentInterface;
  /**
   * The card entries of the older versions served (`protocolVersion` 0.3 when compat has it):
   * give them to the card after the 1.0 ones (`extraInterfaces` of createA2AHandler or serve()).
   */
  compatInterfaces(): AgentInterface[];
  /** Stops accepting calls, waits up to `graceMs` (default 5000) for running ones, then cuts. */
  close(graceMs?: number): Promise<void>;
}

/** Serves `service` (an A2AServer) over gRPC. */
export async function serveGrpc(
  service: A2AService,
  options: ServeGrpcOptions = {},
): Promise<GrpcServerHandle> {
  const host = options.host ?? '127.0.0.1';
  const { definition, implementation } = createGrpcService(service, options);
  const server = new Server(options.channelOptions);
  server.addService(definition, implementation);
  const v03 = (options.compat ?? service.compat ?? []).includes('0.3');
  if (v03) {
    const legacy = createGrpcService03(service, options);
    server.addService(legacy.definition, legacy.implementation);
  }
  const address = (p: number) => (host.includes(':') ? `[${host}]:${p}` : `${host}:${p}`);
  const port = await new Promise<number>((resolve, reject) => {
    server.bindAsync(
      address(options.port ?? 0),
      options.credentials ?? tlsCredentials(options.tls) ?? ServerCredentials.createInsecure(),
      (error, bound) => (error ? reject(error) : resolve(bound)),
    );
  });
  const url = address(port);
  return {
    url,
    port,
    server,
    agentInterface: (tenant) => ({
      url,
      protocolBinding: GRPC_BINDING,
      protocolVersion: PROTOCOL_VERSION,
      ...(tenant !== undefined ? { tenant } : {}),
    }),
    compatInterfaces: () =>
      v03 ? [{ url, protocolBinding: GRPC_BINDING, protocolVersion: V03_VERSION }] : [],
    close: (graceMs = 5000) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(() => server.forceShutdown(), graceMs);
        server.tryShutdown(() => {
          clearTimeout(timer);
          resolve();
        });
      }),
  };
}

/** Server credentials of `tls` (undefined when not given). */
function tlsCredentials(tls: ServeGrpcOptions['tls']): ServerCredentials | undefined {
  if (tls === undefined) return undefined;
  const buffer = (pem: string | Uint8Array) => Buffer.from(pem);
  return ServerCredentials.createSsl(
    tls.ca === undefined ? null : buffer(tls.ca),
    [{ private_key: buffer(tls.key), cert_chain: buffer(tls.cert) }],
    tls.requireClientCert === true,
  );
}
