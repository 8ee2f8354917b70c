/**
 * What every framework adapter starts from: an Agent (or an A2AServer you made) and the
 * handler's options, turned into the A2A router, plus the options all adapters share.
 */
import { createA2AHandler, type A2AHandlerOptions } from '../../bindings/a2a-handler.js';
import type { RoutedHttpHandler } from '../../http/types.js';
import { A2AServer } from '../../server/a2a-server.js';
import type { Agent } from '../../server/agent.js';

/** Options of every framework adapter: the handler's, plus whether a proxy is trusted. */
export interface AdapterOptions extends A2AHandlerOptions {
  /**
   * Believe `X-Forwarded-Proto`, `X-Forwarded-Host` and `X-Forwarded-Prefix` for the card's
   * interface URLs (default false: set it only behind a proxy that overwrites them).
   */
  trustProxy?: boolean | undefined;
}

/** The A2A router of `target`: an A2AServer as is, an Agent in a new in-memory A2AServer. */
export function routerOf(target: Agent | A2AServer, options: AdapterOptions): RoutedHttpHandler {
  const server = target instanceof A2AServer ? target : new A2AServer({ agent: target });
  return createA2AHandler(server, options);
}
