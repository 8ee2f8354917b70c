/**
 * `a2a-kit/next`: Next.js App Router route handlers. In `app/api/a2a/[...path]/route.ts`:
 * `export const { GET, POST, OPTIONS } = a2aRouteHandlers(agent, { basePath: '/api/a2a' })`.
 * Plain fetch (`Request` in, `Response` out), so Next.js itself is not imported; the card at
 * `/api/a2a/.well-known/agent-card.json` lists `basePath` in its interface URLs.
 */
import { toFetchHandler, type FetchHandler } from '../../http/fetch.js';
import type { A2AServer } from '../../server/a2a-server.js';
import type { Agent } from '../../server/agent.js';
import { routerOf, type AdapterOptions } from '../common/target.js';

/** Options of {@link a2aRouteHandlers}. */
export interface A2ARouteHandlersOptions extends AdapterOptions {
  /** The route's path (`/api/a2a` for `app/api/a2a/[...path]/route.ts`); default none. */
  basePath?: string | undefined;
}

/** The route handlers Next.js calls by method; all of them are the same fetch handler. */
export interface A2ARouteHandlers {
  readonly GET: FetchHandler;
  readonly POST: FetchHandler;
  readonly OPTIONS: FetchHandler;
  readonly HEAD: FetchHandler;
}

/** Route handlers serving `target` (an Agent, or an A2AServer you configured). */
export function a2aRouteHandlers(
  target: Agent | A2AServer,
  options: A2ARouteHandlersOptions = {},
): A2ARouteHandlers {
  const handler = toFetchHandler(routerOf(target, options), {
    maxBodyBytes: options.maxBodyBytes,
    basePath: options.basePath,
    trustProxy: options.trustProxy,
  });
  return { GET: handler, POST: handler, OPTIONS: handler, HEAD: handler };
}
