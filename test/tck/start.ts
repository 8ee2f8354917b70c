/**
 * Serves the TCK agent (agent.ts) the way a user would: `serve()` with its defaults on all three
 * bindings (JSON-RPC, HTTP+JSON, gRPC), public entry points only. The only additions are push
 * notifications (so the TCK's push tests run rather than skip) with webhooks to `localhost` and
 * `127.0.0.1` allowed past the SSRF guard, because the TCK's webhook receiver listens there.
 */
import { serve, type ServeResult } from '../../src/node/index.js';
import { createTckAgent, type TckTiming } from './agent.js';

/** Options of {@link startTckAgent}. */
export interface TckAgentOptions {
  /** HTTP port (default 0: any free port). */
  port?: number;
  /** gRPC port (default 0: any free port). */
  grpcPort?: number;
  /** Interface to bind (default 127.0.0.1). */
  host?: string;
  /** Declare and serve push notifications (default true). */
  push?: boolean;
  /** Where failures are logged (default `console`; `null` for silence). */
  logger?: Pick<Console, 'info' | 'warn' | 'error'> | null;
  /** Unexpected errors the server answered as INTERNAL (tests assert there are none). */
  onError?: (error: unknown) => void;
  timing?: Partial<TckTiming>;
}

/** A running TCK agent. */
export interface TckAgent {
  /** The HTTP origin: the TCK's `--sut-host`. */
  readonly url: string;
  /** The gRPC interface, `host:port`. */
  readonly grpcUrl: string;
  readonly served: ServeResult;
  close(): Promise<void>;
}

/** Hosts the TCK's webhook receiver is reached at (tck/webhook/server.py, `--webhook-host`). */
export const WEBHOOK_HOSTS = ['localhost', '127.0.0.1'];

/** Starts the TCK agent; `close()` stops it. */
export async function startTckAgent(options: TckAgentOptions = {}): Promise<TckAgent> {
  const logger = options.logger !== undefined ? { logger: options.logger } : {};
  const served = await serve(createTckAgent(options.timing), {
    port: options.port ?? 0,
    host: options.host ?? '127.0.0.1',
    grpc: { port: options.grpcPort ?? 0 },
    // serve() makes the notifier on its default store; the server closes it.
    ...(options.push !== false ? { push: { allowHosts: WEBHOOK_HOSTS, ...logger } } : {}),
    ...(options.onError ? { onError: options.onError } : {}),
    ...logger,
  });
  const grpcUrl = served.grpcUrl;
  if (grpcUrl === undefined) throw new Error('serve() returned no gRPC interface');
  return { url: served.url, grpcUrl, served, close: () => served.close() };
}
