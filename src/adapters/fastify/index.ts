/**
 * `a2a-kit/fastify`: the A2A endpoints as a Fastify 5 plugin, `app.register(a2a, { agent,
 * prefix })`. In its own scope it takes every body as raw bytes (its own content-type parser,
 * `application/a2a+json` and JSON included) within Fastify's `bodyLimit` (an oversized body gets
 * the binding's PAYLOAD_TOO_LARGE), answers paths that are not A2A's with Fastify's 404, and
 * hijacks the reply for SSE streams.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { A2AServer } from '../../server/a2a-server.js';
import type { Agent } from '../../server/agent.js';
import { disconnectSignal, writeNodeResponse } from '../../http/node-io.js';
import { mountedRequest, nodeHeaders } from '../common/request.js';
import { routerOf, type AdapterOptions } from '../common/target.js';

/** Options of the {@link a2a} plugin: what to serve, and the adapter's options. */
export interface A2AFastifyOptions extends AdapterOptions {
  /** The Agent, or an A2AServer you configured. */
  agent: Agent | A2AServer;
  /** Read by Fastify's `register`: the mount path. */
  prefix?: string;
}

/** Fastify's default `bodyLimit` (1 MiB). */
const FASTIFY_BODY_LIMIT = 1024 * 1024;

/** Fastify's code for a body over `bodyLimit`. */
const TOO_LARGE = 'FST_ERR_CTP_BODY_TOO_LARGE';

/** The plugin: `await app.register(a2a, { agent, prefix: '/agents/x' })`. */
export async function a2a(app: FastifyInstance, options: A2AFastifyOptions): Promise<void> {
  const handler = routerOf(options.agent, options);
  const trustProxy = options.trustProxy ?? false;
  const bodyLimit = options.maxBodyBytes ?? app.initialConfig.bodyLimit ?? FASTIFY_BODY_LIMIT;
  // Bytes as they came: the bindings decode and validate them (and answer bad JSON in shape).
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit }, (_req, body, done) => {
    done(null, body);
  });

  async function serve(
    request: FastifyRequest,
    reply: FastifyReply,
    bodyTooLarge: boolean,
  ): Promise<void> {
    const mountPath = app.prefix;
    const inside = request.url.slice(mountPath.length) || '/';
    const body = request.body instanceof Uint8Array ? request.body : undefined;
    const response = await handler(
      mountedRequest({
        method: request.method,
        url: inside.startsWith('/') ? inside : `/${inside}`,
        headers: nodeHeaders(request.headers),
        scheme: request.protocol,
        mountPath,
        trustProxy,
        body: bodyTooLarge ? undefined : body,
        bodyTooLarge,
        signal: disconnectSignal(reply.raw),
        remoteAddress: request.socket.remoteAddress,
      }),
    );
    if (typeof response.body === 'string' || response.body === undefined) {
      await reply.code(response.status).headers(response.headers).send(response.body);
      return;
    }
    reply.hijack(); // SSE: frames are written to the socket as they come
    await writeNodeResponse(reply.raw, response);
  }

  app.setErrorHandler(async (error: Error & { code?: string }, request, reply) => {
    if (error.code === TOO_LARGE) return serve(request, reply, true);
    throw error;
  });
  app.all('/*', async (request, reply) => {
    const path = request.url.slice(app.prefix.length).split('?')[0] || '/';
    if (!handler.owns(path)) return reply.callNotFound();
    return serve(request, reply, false);
  });
}
