/**
 * The public location of a request (http/forwarded.ts), and the router's two hooks for framework
 * adapters: `HttpRequest.basePath` in front of every card interface URL (spec §8.3.1: absolute
 * URLs clients can reach), and `owns(path)` for the paths it answers.
 */
import { describe, expect, it } from 'vitest';
import { createA2AHandler } from '../bindings/a2a-handler.js';
import type { AgentCard, AgentInterface } from '../core/schemas/index.js';
import type { A2AService } from '../core/service.js';
import { forwardedLocation, joinPaths } from './forwarded.js';

const headers = (values: Record<string, string>) => ({ get: (n: string) => values[n] ?? null });
const forwarded = {
  host: '127.0.0.1:8080',
  'x-forwarded-proto': 'https',
  'x-forwarded-host': 'agent.example.com',
  'x-forwarded-prefix': '/edge/',
};

describe('forwardedLocation', () => {
  it('takes scheme + Host and the mount path; ignores X-Forwarded-* unless trusted', () => {
    const input = { scheme: 'http', mountPath: '/agents/x/', trustProxy: false };
    expect(forwardedLocation(headers(forwarded), input)).toEqual({
      origin: 'http://127.0.0.1:8080',
      basePath: '/agents/x',
    });
  });

  it('with trustProxy, the proxy says scheme, host and prefix (first value of a list)', () => {
    const input = { scheme: 'http', mountPath: '/agents/x', trustProxy: true };
    const list = { ...forwarded, 'x-forwarded-host': 'agent.example.com, inner.local' };
    expect(forwardedLocation(headers(list), input)).toEqual({
      origin: 'https://agent.example.com',
      basePath: '/edge/agents/x',
    });
  });

  it('never puts a hostile Host or prefix in the card', () => {
    const input = { scheme: 'http', mountPath: '', trustProxy: true, fallbackOrigin: 'http://x' };
    const hostile = {
      host: 'evil.com/"><script>',
      'x-forwarded-host': 'a b',
      'x-forwarded-prefix': '/"><script>',
    };
    expect(forwardedLocation(headers(hostile), input)).toEqual({
      origin: 'http://x',
      basePath: '',
    });
  });

  it('joins paths without doubled or trailing slashes', () => {
    expect(joinPaths('/a/', '/b/')).toBe('/a/b');
    expect(joinPaths('', '/')).toBe('');
  });
});

describe('router hooks for adapters', () => {
  const service: A2AService = {
    invoke: () => Promise.resolve({}),
    stream: () => Promise.reject(new Error('not used')),
    agentCard: (supportedInterfaces: AgentInterface[]) =>
      ({ name: 'Echo', supportedInterfaces }) as unknown as AgentCard,
  };

  it('[8] puts basePath between the origin and every interface path', async () => {
    const handler = createA2AHandler(service);
    const res = await handler({
      method: 'GET',
      url: '/.well-known/agent-card.json',
      headers: headers({ host: 'h:1' }),
      basePath: '/agents/x',
    });
    const card = JSON.parse(res.body as string) as { supportedInterfaces: AgentInterface[] };
    expect(card.supportedInterfaces.map((i) => i.url)).toEqual([
      'http://h:1/agents/x/a2a/jsonrpc',
      'http://h:1/agents/x/a2a/rest',
    ]);
  });

  it('owns its card, its bindings (and what is under a prefix binding), nothing else', () => {
    const handler = createA2AHandler(service, {
      routes: { '/extra': () => Promise.resolve({ status: 204, headers: {}, body: undefined }) },
    });
    for (const path of ['/.well-known/agent-card.json', '/a2a/jsonrpc', '/a2a/jsonrpc/']) {
      expect(handler.owns(path)).toBe(true);
    }
    expect(handler.owns('/a2a/rest/tasks/1')).toBe(true);
    expect(handler.owns('/extra')).toBe(true);
    for (const path of ['/', '/other', '/a2a/jsonrpcx', '/a2a/restx', '/a2a']) {
      expect(handler.owns(path)).toBe(false);
    }
  });
});
