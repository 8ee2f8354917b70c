/**
 * `a2a-kit/hono`: the A2A endpoints as a Hono 4 app, for `app.route('/a2a', a2aHono(agent))`
 * (the mount path is read from the matched route and put in the card's interface URLs) and
 * `a2aFetch` for `app.mount(...)`, Bun, Deno and Cloudflare Workers. Paths that are not A2A's
 * go on to the next handler (`next()`).
 */
import { Hono } from 'hono';
import { serveFetchRequest, toFetchHandler, type FetchHandler } from '../../http/fetch.js';
import type { A2AServer } from '../../server/a2a-server.js';
import type { Agent } from '../../server/agent.js';
import { routerOf, type AdapterOptions } from '../common/target.js';

export type { AdapterOptions as A2AHonoOptions } from '../common/target.js';

/** A Hono app serving `target` (an Agent, or an A2AServer you configured). */
export function a2aHono(target: Agent | A2AServer, options: AdapterOptions = {}): Hono {
  const handler = routerOf(target, options);
  const app = new Hono();
  app.all('*', async (c, next) => {
    // Under app.route('/agents/x', …) the matched route is `/agents/x/*`.
    const mountPath = c.req.routePath.replace(/\/?\*$/, '');
    const inside = c.req.path.slice(mountPath.length) || '/';
    if (!handler.owns(inside)) {
      await next();
      return;
    }
    return serveFetchRequest(handler, c.req.raw, {
      maxBodyBytes: options.maxBodyBytes,
      trustProxy: options.trustProxy,
      basePath: mountPath,
    });
  });
  return app;
}

/** Options of {@link a2aFetch}: the adapter's, plus where the handler is mounted. */
export interface A2AFetchOptions extends AdapterOptions {
  /** The mount path (`app.mount('/a2a', …)` strips it; give it here for the card's URLs). */
  basePath?: string | undefined;
}

/**
 * The plain fetch handler of `target`, for `app.mount('/a2a', a2aFetch(agent, { basePath:
 * '/a2a' }))`, `Bun.serve({ fetch })`, `Deno.serve(fetch)` and a Worker's `fetch`.
 */
export function a2aFetch(target: Agent | A2AServer, options: A2AFetchOptions = {}): FetchHandler {
  return toFetchHandler(routerOf(target, options), {
    maxBodyBytes: options.maxBodyBytes,
    basePath: options.basePath,
    trustProxy: options.trustProxy,
  });
}
