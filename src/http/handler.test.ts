import { describe, expect, it } from 'vitest';
import type { AgentCard, AgentInterface } from '../core/schemas/index.js';
import { createA2AHandler, type A2AHandlerOptions } from '../bindings/a2a-handler.js';
import type { HttpRequest, HttpResponse } from './types.js';
import type { A2AService } from '../core/service.js';
import type { CallContext } from '../core/call-context.js';

function setup(options: A2AHandlerOptions = {}) {
  const invoked: string[] = [];
  const service: A2AService = {
    async invoke(name) {
      invoked.push(name);
      return { ok: true };
    },
    async stream() {
      throw new Error('not used');
    },
    agentCard: (supportedInterfaces: AgentInterface[]) =>
      ({ name: 'Echo', supportedInterfaces }) as unknown as AgentCard,
  };
  const handler = createA2AHandler(service, options);
  const request = (
    method: string,
    url: string,
    headers: Record<string, string> = {},
    extra: Partial<HttpRequest> = {},
  ): Promise<HttpResponse> =>
    handler({ method, url, headers: { get: (n) => headers[n] ?? null }, ...extra });
  return { invoked, request };
}

function card(res: HttpResponse): { supportedInterfaces: AgentInterface[] } {
  expect(res.status).toBe(200);
  return JSON.parse(res.body as string) as { supportedInterfaces: AgentInterface[] };
}

describe('createA2AHandler', () => {
  it('[2][6][7][8] serves the card without A2A-Version, JSON-RPC first then HTTP+JSON, at baseUrl + path', async () => {
    const { request } = setup({ baseUrl: 'https://agent.example.com/' });
    const res = await request('GET', '/.well-known/agent-card.json');
    expect(res.headers['content-type']).toBe('application/json');
    expect(card(res).supportedInterfaces).toEqual([
      {
        url: 'https://agent.example.com/a2a/jsonrpc',
        protocolBinding: 'JSONRPC',
        protocolVersion: '1.0',
      },
      {
        url: 'https://agent.example.com/a2a/rest',
        protocolBinding: 'HTTP+JSON',
        protocolVersion: '1.0',
      },
    ]);
  });

  it('[7] lists extra interfaces (a gRPC port) after JSON-RPC and HTTP+JSON', async () => {
    const grpc = { url: '127.0.0.1:50051', protocolBinding: 'GRPC', protocolVersion: '1.0' };
    const { request } = setup({ baseUrl: 'http://h', extraInterfaces: [grpc] });
    const res = await request('GET', '/.well-known/agent-card.json');
    expect(card(res).supportedInterfaces.map((i) => i.protocolBinding)).toEqual([
      'JSONRPC',
      'HTTP+JSON',
      'GRPC',
    ]);
    expect(card(res).supportedInterfaces[2]).toEqual(grpc);
  });

  it('uses the configured binding paths for routing and in the card', async () => {
    const { request, invoked } = setup({
      baseUrl: 'http://h',
      jsonrpcPath: 'rpc',
      restPath: '/api/',
    });
    const urls = card(await request('GET', '/.well-known/agent-card.json')).supportedInterfaces.map(
      (i) => i.url,
    );
    expect(urls).toEqual(['http://h/rpc', 'http://h/api']);
    const v = { 'a2a-version': '1.0' };
    expect((await request('GET', '/api/tasks/t1', v)).status).toBe(200);
    const rpc = await request(
      'POST',
      '/rpc',
      { ...v, 'content-type': 'application/json' },
      {
        body: '{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{"id":"t"}}',
      },
    );
    expect(JSON.parse(rpc.body as string)).toMatchObject({ result: { ok: true } });
    expect(invoked).toEqual(['GetTask', 'GetTask']);
    expect((await request('GET', '/a2a/rest/tasks/t1', v)).status).toBe(404);
  });

  it('derives the card URLs from the Host header or the adapter origin when no baseUrl is set', async () => {
    const { request } = setup();
    const viaHost = card(
      await request('GET', '/.well-known/agent-card.json', { host: 'example.test:8080' }),
    );
    expect(viaHost.supportedInterfaces[0]?.url).toBe('http://example.test:8080/a2a/jsonrpc');
    const viaOrigin = card(
      await request('GET', '/.well-known/agent-card.json', {}, { origin: 'https://x.test' }),
    );
    expect(viaOrigin.supportedInterfaces[1]?.url).toBe('https://x.test/a2a/rest');
  });

  it('never puts a malformed Host header into the card', async () => {
    const { request } = setup();
    const res = await request('GET', '/.well-known/agent-card.json', {
      host: 'evil.test/"><script>',
    });
    expect(card(res).supportedInterfaces[0]?.url).toBe('http://localhost/a2a/jsonrpc');
  });

  it('answers 404 with a google.rpc.Status for unknown paths', async () => {
    const { request } = setup({ baseUrl: 'http://h' });
    const res = await request('GET', '/favicon.ico');
    expect(res.status).toBe(404);
    expect(JSON.parse(res.body as string)).toMatchObject({
      error: { code: 404, status: 'NOT_FOUND' },
    });
  });

  it.each([
    ['GET', '/a2a/jsonrpc', 'POST'],
    ['POST', '/.well-known/agent-card.json', 'GET'],
  ])('answers %s %s with 405 and Allow: %s', async (method, url, allow) => {
    const { request } = setup({ baseUrl: 'http://h' });
    const res = await request(method, url, { 'a2a-version': '1.0' });
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe(allow);
    expect(JSON.parse(res.body as string)).toMatchObject({ error: { code: 405 } });
  });

  it('routes an absolute-form request target by its path', async () => {
    const { request } = setup({ baseUrl: 'http://h' });
    expect((await request('GET', 'http://h/.well-known/agent-card.json')).status).toBe(200);
  });

  it('passes Last-Event-ID, the abort signal and requested extensions in the call context', async () => {
    let seen: unknown;
    const controller = new AbortController();
    const service: A2AService = {
      invoke: async (_name, _params, call) => {
        seen = call;
        return {};
      },
      stream: async () => {
        throw new Error('not used');
      },
      agentCard: () => ({}) as AgentCard,
    };
    const handler = createA2AHandler(service, { baseUrl: 'http://h' });
    const headers: Record<string, string> = {
      'a2a-version': '1.0.3',
      'last-event-id': '5',
      'a2a-extensions': 'urn:x',
    };
    const res = await handler({
      method: 'GET',
      url: '/a2a/rest/tasks/t1',
      headers: { get: (n) => headers[n] ?? null },
      signal: controller.signal,
    });
    expect(res.status).toBe(200);
    const call = seen as CallContext;
    expect(call.protocolBinding).toBe('HTTP+JSON');
    expect(call.requestedExtensions).toEqual(['urn:x']);
    expect(call.signal).toBe(controller.signal);
    expect(call.tenant).toBeUndefined();
  });
});
