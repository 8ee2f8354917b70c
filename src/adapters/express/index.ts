/**
 * `a2a-kit/express`: the A2A endpoints (card, JSON-RPC, HTTP+JSON, SSE) as Express 4 or 5
 * middleware. It answers only its own paths and calls `next()` for the rest without touching
 * their bodies; it works before or after `express.json()` (a body already parsed is reused);
 * under `app.use('/agents/x', …)` the card's interface URLs carry the mount path.
 */
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { DEFAULT_MAX_BODY_BYTES } from '../../http/handler.js';
import type { A2AServer } from '../../server/a2a-server.js';
import type { Agent } from '../../server/agent.js';
import { disconnectSignal, readNodeBody, writeNodeResponse } from '../../http/node-io.js';
import { mountedRequest, nodeHeaders, pathOf } from '../common/request.js';
import { routerOf, type AdapterOptions } from '../common/target.js';

export type { AdapterOptions as A2AExpressOptions } from '../common/target.js';

/** A body a parser before us left on the request (`express.json()`, `express.raw()`, …). */
interface ParsedRequest {
  readonly _body?: boolean; // body-parser 1 (Express 4) marks a read body so
  readonly rawBody?: unknown; // a `verify` hook's copy of the raw bytes, by convention
  readonly body?: unknown;
  readonly readableEnded?: boolean;
}

const UNREAD = Symbol('unread');

/** The body another middleware already read, or UNREAD when the stream is still ours. */
function parsedBody(req: ParsedRequest): Uint8Array | string | undefined | typeof UNREAD {
  if (req._body !== true && req.readableEnded !== true) return UNREAD;
  if (req.rawBody instanceof Uint8Array) return req.rawBody;
  const { body } = req;
  if (body === undefined || body === null) return undefined;
  if (body instanceof Uint8Array || typeof body === 'string') return body;
  // Parsed JSON: written back as JSON (the same value; key order and numbers survive).
  return JSON.stringify(body);
}

/**
 * Express middleware serving `target` (an Agent, or an A2AServer you configured) with the
 * options of `createA2AHandler` plus `trustProxy`. Mount it anywhere:
 * `app.use(a2aExpress(agent))` or `app.use('/agents/x', a2aExpress(agent))`.
 */
export function a2aExpress(
  target: Agent | A2AServer,
  options: AdapterOptions = {},
): RequestHandler {
  const handler = routerOf(target, options);
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const trustProxy = options.trustProxy ?? false;
  return (req: Request, res: Response, next: NextFunction): void => {
    if (!handler.owns(pathOf(req.url))) {
      next();
      return;
    }
    serve(req, res).then(undefined, (error: unknown) =>
      res.headersSent ? res.destroy() : next(error),
    );
  };

  async function serve(req: Request, res: Response): Promise<void> {
    const signal = disconnectSignal(res);
    const parsed = parsedBody(req as ParsedRequest);
    let body: Uint8Array | string | undefined;
    let bodyTooLarge = false;
    if (parsed === UNREAD) {
      const read = await readNodeBody(req, maxBodyBytes);
      if (read === 'too large') bodyTooLarge = true;
      else body = read;
    } else {
      body = parsed;
    }
    const request = mountedRequest({
      method: req.method,
      url: req.url,
      headers: nodeHeaders(req.headers),
      scheme: req.protocol,
      mountPath: req.baseUrl,
      trustProxy,
      body,
      bodyTooLarge,
      signal,
      remoteAddress: req.socket.remoteAddress,
    });
    const response = await handler(request);
    if (bodyTooLarge) response.headers = { ...response.headers, connection: 'close' };
    await writeNodeResponse(res, response);
  }
}

/** Another name for {@link a2aExpress}, read as `app.use('/a2a', a2aRouter(agent))`. */
export const a2aRouter = a2aExpress;
