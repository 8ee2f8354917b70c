/**
 * Connection limits of serve() (spec §13.4: protect against resource exhaustion): how long a
 * client may take to send its headers and its whole request, how long an idle kept-alive
 * connection and a reply nobody reads stay open, how many connections are open at once (in all
 * and per client address), how much of an oversized body is drained so its 413 is read, and the
 * gRPC server's counterparts. Open streams are not cut by any of these while keep-alives flow.
 */
import type { Server as HttpServer, ServerOptions } from 'node:http';
import type { Socket } from 'node:net';
import { A2AError } from '../core/errors.js';
import { statusJson } from '../http/errors.js';

/** serve()'s `connections` option; every field has a default ({@link DEFAULT_CONNECTION_LIMITS}). */
export interface ConnectionLimits {
  /** The request line and headers must arrive within this (default 10 000 ms); else 408. */
  readonly headersTimeoutMs?: number | undefined;
  /** The whole request, body included, must arrive within this (default 60 000 ms); else 408. */
  readonly requestTimeoutMs?: number | undefined;
  /** An idle kept-alive connection is closed after this (default 5 000 ms). */
  readonly keepAliveTimeoutMs?: number | undefined;
  /**
   * A reply the client stops reading is abandoned after this long without progress (default
   * 60 000 ms). SSE keep-alives (`keepAliveMs`, default 15 s) must come more often, so an open
   * stream that is read is never cut. gRPC: a connection without calls is closed after this.
   */
  readonly idleTimeoutMs?: number | undefined;
  /** Most open connections in all (default 4096); beyond, new ones are closed at once. */
  readonly maxConnections?: number | false | undefined;
  /**
   * Most open connections from one client address (default 256); beyond, requests on a new one
   * are answered 429 and the connection closed. Behind a proxy every client has the proxy's
   * address: raise it, or set `false` and let the proxy limit.
   */
  readonly maxConnectionsPerAddress?: number | false | undefined;
  /**
   * After refusing an oversized body, read and discard at most this much more of it (default
   * 8 MiB) so the client, still sending, reads the 413 instead of a connection reset.
   */
  readonly maxDrainBytes?: number | undefined;
  /** …for at most this long (default 5 000 ms); then the connection is closed anyway. */
  readonly drainTimeoutMs?: number | undefined;
  /** gRPC: most concurrent calls on one HTTP/2 connection (default 100, RFC 9113 §6.5.2). */
  readonly maxStreamsPerConnection?: number | undefined;
}

/** The defaults of {@link ConnectionLimits}. */
export const DEFAULT_CONNECTION_LIMITS = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 60_000,
  keepAliveTimeoutMs: 5_000,
  idleTimeoutMs: 60_000,
  maxConnections: 4096,
  maxConnectionsPerAddress: 256,
  maxDrainBytes: 8 * 1024 * 1024,
  drainTimeoutMs: 5_000,
  maxStreamsPerConnection: 100,
} as const;

/** Every limit resolved. */
export type ResolvedConnectionLimits = {
  readonly [K in keyof typeof DEFAULT_CONNECTION_LIMITS]: K extends
    'maxConnections' | 'maxConnectionsPerAddress'
    ? number | false
    : number;
};

/** `limits` with the defaults filled in; throws a TypeError naming a value that cannot work. */
export function resolveConnectionLimits(
  limits: ConnectionLimits = {},
  sseKeepAliveMs = 15_000,
): ResolvedConnectionLimits {
  const resolved = { ...DEFAULT_CONNECTION_LIMITS } as Record<string, number | false>;
  for (const [key, value] of Object.entries(limits)) {
    if (value === undefined) continue;
    const nullable = key === 'maxConnections' || key === 'maxConnectionsPerAddress';
    if (!(nullable && value === false) && !(typeof value === 'number' && value > 0)) {
      throw new TypeError(
        `connections.${key} must be a positive number${nullable ? ' or false' : ''}`,
      );
    }
    resolved[key] = value as number | false;
  }
  const result = resolved as ResolvedConnectionLimits;
  if (sseKeepAliveMs > 0 && sseKeepAliveMs >= result.idleTimeoutMs) {
    throw new TypeError(
      `keepAliveMs (${sseKeepAliveMs} ms) must be shorter than connections.idleTimeoutMs ` +
        `(${result.idleTimeoutMs} ms), or open streams that are read would be cut`,
    );
  }
  return result;
}

/** The node:http (or node:https) server options of `limits`. */
export function httpServerOptions(limits: ResolvedConnectionLimits): ServerOptions {
  const headersTimeout = Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs);
  return {
    headersTimeout,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    // How often Node looks for requests past their timeouts: a fraction of the shortest one.
    connectionsCheckingInterval: Math.max(10, Math.min(30_000, Math.floor(headersTimeout / 4))),
  };
}

const OVER_LIMIT = Symbol('a2a-kit over the per-address connection limit');
type CountedSocket = Socket & { [OVER_LIMIT]?: string };

/**
 * Applies the connection caps to `server`: `maxConnections` through node's own (excess sockets are
 * closed at once), and the per-address cap by counting; a connection past it is marked, and
 * {@link refusedConnection} answers its requests. `secure`: count TLS connections once they are up.
 */
export function limitConnections(
  server: HttpServer,
  limits: ResolvedConnectionLimits,
  secure: boolean,
): void {
  if (limits.maxConnections !== false) server.maxConnections = limits.maxConnections;
  const perAddress = limits.maxConnectionsPerAddress;
  if (perAddress === false) return;
  const open = new Map<string, number>();
  server.on(secure ? 'secureConnection' : 'connection', (socket: CountedSocket) => {
    const address = socket.remoteAddress ?? 'unknown';
    const count = (open.get(address) ?? 0) + 1;
    open.set(address, count);
    if (count > perAddress) {
      socket[OVER_LIMIT] =
        `too many connections from ${address}: at most ${perAddress} at once; ` +
        'reuse or close one, then retry';
    }
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left <= 0) open.delete(address);
      else open.set(address, left);
    });
  });
}

/** The 429 reply for a request on a connection past the per-address cap, else undefined. */
export function refusedConnection(
  socket: Socket,
): { status: number; headers: Record<string, string>; body: string } | undefined {
  const reason = (socket as CountedSocket)[OVER_LIMIT];
  if (reason === undefined) return undefined;
  return {
    status: 429,
    headers: { 'content-type': 'application/json', 'retry-after': '1', connection: 'close' },
    body: statusJson(new A2AError('RATE_LIMITED', reason)),
  };
}

/** grpc-js server options of `limits` (merged under the caller's own `channelOptions`). */
export function grpcServerOptions(limits: ResolvedConnectionLimits): Record<string, number> {
  return {
    'grpc.max_concurrent_streams': limits.maxStreamsPerConnection,
    'grpc.max_connection_idle_ms': limits.idleTimeoutMs,
    // Ping a silent client so a peer that vanished does not hold its streams forever.
    'grpc.keepalive_time_ms': limits.idleTimeoutMs,
    'grpc.keepalive_timeout_ms': Math.min(20_000, limits.idleTimeoutMs),
  };
}
