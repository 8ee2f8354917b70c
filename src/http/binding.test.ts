/**
 * The HttpBinding seam: a binding defined here, outside src/bindings, is
 * served by adding it to the list where the handler is assembled. The router routes to it
 * (with or without a trailing slash), lists it in the card after the default ones, runs the
 * admission checks before it and lets it render refusals in its own shape.
 */
import { describe, expect, it } from 'vitest';
import { createA2AHandler, httpBindings } from '../bindings/a2a-handler.js';
import { A2AError, ERROR_CATALOG, toA2AError } from '../core/errors.js';
import { createAgent } from '../server/agent.js';
import { A2AServer } from '../server/a2a-server.js';
import type { HttpBinding } from './binding.js';
import type { HttpRequest } from './types.js';

/** A toy binding: `POST /a2a/plain` with the text of a message; answers the task state. */
const plainBinding: HttpBinding = {
  protocolBinding: 'PLAIN',
  path: '/a2a/plain',
  match: 'exact',
  methods: ['POST'],
  async handle(req, _rest, _query, ctx) {
    try {
      const text = typeof req.body === 'string' ? req.body : '';
      const params = {
        message: { messageId: 'm-plain', role: 'ROLE_USER', parts: [{ text }] },
      };
      const result = (await ctx.service.invoke('SendMessage', params, ctx.call)) as {
        task?: { status: { state: string } };
      };
      return {
        status: 200,
        headers: {},
        body: `${ctx.call.protocolBinding} ${result.task?.status.state}`,
      };
    } catch (error) {
      return this.refuse(req, toA2AError(error, ctx.onError), ctx);
    }
  },
  refuse: (_req, error) => ({
    status: ERROR_CATALOG[error.code].http,
    headers: { ...error.headers, 'content-type': 'text/plain' },
    body: `refused: ${error.code}`,
  }),
};

const agent = createAgent({
  card: { name: 'Plain', description: 'echo', version: '1.0.0', skills: [] },
  async *execute({ task }) {
    yield task.completed('done');
  },
});

function request(method: string, url: string, headers: Record<string, string> = {}, body = '') {
  const req: HttpRequest = {
    method,
    url,
    headers: { get: (n) => ({ 'a2a-version': '1.0', ...headers })[n] ?? null },
    body,
  };
  return req;
}

describe('HttpBinding', () => {
  it('serves a binding added in one line, and lists it in the card after the default ones', async () => {
    const server = new A2AServer({ agent });
    const handler = createA2AHandler(server, {
      baseUrl: 'http://h',
      bindings: [...httpBindings(), plainBinding],
    });
    const res = await handler(request('POST', '/a2a/plain', {}, 'hello'));
    expect([res.status, res.body]).toEqual([200, 'PLAIN TASK_STATE_COMPLETED']);
    const slashed = await handler(request('POST', '/a2a/plain/', {}, 'hello'));
    expect(slashed.status).toBe(200);
    const get = await handler(request('GET', '/a2a/plain'));
    expect([get.status, get.headers.allow]).toEqual([405, 'POST']);
    const card = JSON.parse(
      (await handler(request('GET', '/.well-known/agent-card.json'))).body as string,
    ) as { supportedInterfaces: { url: string; protocolBinding: string }[] };
    expect(card.supportedInterfaces.map((i) => [i.protocolBinding, i.url])).toEqual([
      ['JSONRPC', 'http://h/a2a/jsonrpc'],
      ['HTTP+JSON', 'http://h/a2a/rest'],
      ['PLAIN', 'http://h/a2a/plain'],
    ]);
    await server.close();
  });

  it('runs admission before the binding and lets it render the refusal in its own shape', async () => {
    const server = new A2AServer({ agent });
    const handler = createA2AHandler(server, {
      baseUrl: 'http://h',
      bindings: [plainBinding],
      middleware: [
        async (operation, _params, call, next) => {
          if (call.protocolBinding === 'PLAIN' && operation === 'SendMessage') {
            throw new A2AError('PERMISSION_DENIED', 'no', { headers: { 'x-why': 'test' } });
          }
          return next();
        },
      ],
    });
    const crossSite = await handler(
      request('POST', '/a2a/plain', { origin: 'https://evil.example' }, 'x'),
    );
    expect([crossSite.status, crossSite.body]).toEqual([403, 'refused: PERMISSION_DENIED']);
    const denied = await handler(request('POST', '/a2a/plain', {}, 'x'));
    expect([denied.status, denied.body, denied.headers['x-why']]).toEqual([
      403,
      'refused: PERMISSION_DENIED',
      'test',
    ]);
    // Only the given bindings are served.
    expect((await handler(request('POST', '/a2a/jsonrpc', {}, '{}'))).status).toBe(404);
    await server.close();
  });
});
