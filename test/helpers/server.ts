/** Starts a test agent on 127.0.0.1, port 0, with `serve()`. */
import { serve } from '../../src/node/index.js';
import type { Agent } from '../../src/server/index.js';

/** Options the suites tune. */
export interface TestServerOptions {
  maxBodyBytes?: number;
  keepAliveMs?: number;
}

/** A running server. */
export interface RunningServer {
  /** `http://127.0.0.1:PORT`. */
  readonly url: string;
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
  const running = await serve(agent, {
    port: 0,
    host: '127.0.0.1',
    logger: null,
    onError: (error) => internalErrors.push(error),
    ...options,
  });
  return { url: running.url, internalErrors, close: () => running.close() };
}
