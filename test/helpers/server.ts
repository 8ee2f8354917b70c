/**
 * Starts a test agent on 127.0.0.1, port 0, with `serve()`: HTTP and gRPC (its own free port),
 * and NATS on a subject of its own when A2A_TEST_NATS_URL is set.
 */
import { expect } from 'vitest';
import { serve } from '../../src/node/index.js';
import { createPushNotifier } from '../../src/push/index.js';
import { A2AServer, type A2AServerOptions, type Agent } from '../../src/server/index.js';
import { MemoryTaskStore } from '../../src/stores/memory/task-store.js';

/**
 * True in the files of the conformance matrix (test/conformance), whose servers also serve A2A
 * 0.3 (compat: ['0.3']) for the 0.3 drivers (test/helpers/v03-driver.ts). The other suites that
 * share these helpers (fuzz, hostile, TCK) speak raw 1.0 to a 1.0-only server; the 0.3 inputs
 * are fuzzed in test/fuzz/v03.test.ts.
 */
export function inConformanceMatrix(): boolean {
  return (expect.getState().testPath ?? '').includes('/test/conformance/');
}

/**
 * Fetch options for the 1.0 card: the conformance servers serve A2A 0.3 too, so a
 * card request without `A2A-Version` gets the hybrid card of 0.3 clients (checked in
 * test/interop/v03-card.test.ts); the 1.0 card is asked for with the header, as our client does.
 */
export const V1_CARD = { headers: { 'A2A-Version': '1.0' } };

/** The NATS server of the run (the NATS binding is tested when it is set). */
export const NATS_URL = process.env['A2A_TEST_NATS_URL'] || undefined;

/** Options the suites tune. */
export interface TestServerOptions {
  maxBodyBytes?: number;
  keepAliveMs?: number;
  /**
   * Push notifications on: a memory store and a silent notifier whose SSRF guard allows only
   * `allowHosts` (default `['127.0.0.1']`) besides public https URLs.
   */
  push?: boolean | { allowHosts?: readonly string[] };
  /** The task store (default: serve()'s memory store). */
  store?: NonNullable<A2AServerOptions['store']>;
  idempotency?: NonNullable<A2AServerOptions['idempotency']>;
  memory?: NonNullable<A2AServerOptions['memory']>;
  interrupted?: NonNullable<A2AServerOptions['interrupted']>;
  generations?: NonNullable<A2AServerOptions['generations']>;
  /** The audit chain (docs/trust.md). */
  audit?: NonNullable<A2AServerOptions['audit']>;
}

/** A running server. */
export interface RunningServer {
  /** `http://127.0.0.1:PORT`. */
  readonly url: string;
  /** The gRPC interface, `127.0.0.1:PORT`. */
  readonly grpcUrl: string;
  /** The NATS interface, `nats://host:port/<subject>`, when NATS is configured. */
  readonly natsUrl?: string | undefined;
  /** Unexpected errors the server answered as INTERNAL: always a bug, tests assert none. */
  readonly internalErrors: unknown[];
  close(): Promise<void>;
}

/** Serves `agent` with a silent logger (agents that throw are part of the tests). */
export async function startServer(
  agent: Agent,
  options: TestServerOptions = {},
): Promise<RunningServer> {
  const internalErrors: unknown[] = [];
  const { push, ...rest } = options;
  // serve(agent, { push }) does not pass `push` on to the A2AServer it creates (issue 5), so a
  // push-enabled server is built here and handed to serve(), which then leaves closing it to us.
  const server = push ? pushServer(agent, push === true ? {} : push) : undefined;
  const running = await serve(server ?? agent, {
    port: 0,
    host: '127.0.0.1',
    logger: null,
    onError: (error) => internalErrors.push(error),
    grpc: true,
    // The 0.3 drivers of the matrix speak A2A 0.3 to the same server (test/helpers/v03-driver.ts).
    ...(server || !inConformanceMatrix() ? {} : { compat: ['0.3'] as const }),
    ...(NATS_URL
      ? { nats: { servers: NATS_URL, subject: `conf${crypto.randomUUID().slice(0, 8)}.agent` } }
      : {}),
    ...rest,
  });
  const grpcUrl = running.grpcUrl;
  if (grpcUrl === undefined) throw new Error('serve({ grpc: true }) returned no grpcUrl');
  const close = async () => {
    await running.close();
    await server?.close();
  };
  return { url: running.url, grpcUrl, natsUrl: running.natsUrl, internalErrors, close };
}

/** An A2AServer over a memory store with a notifier (closed with the server). */
function pushServer(agent: Agent, options: { allowHosts?: readonly string[] }): A2AServer {
  const store = new MemoryTaskStore();
  const notifier = createPushNotifier({
    store,
    allowHosts: options.allowHosts ?? ['127.0.0.1'],
    logger: null,
  });
  return new A2AServer({
    agent,
    store,
    ownership: false,
    logger: null,
    push: { notifier },
    compat: inConformanceMatrix() ? ['0.3'] : [],
  });
}
