/**
 * Limits (spec §13.4, requirements 205, 206 of test/conformance/requirements.ts): per-caller rate limit with 429 + Retry-After (gRPC
 * RESOURCE_EXHAUSTED) shared across bindings, concurrent streams per caller, parts per message,
 * message size, and history returned per task.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JsonRpcTransport } from '../../src/bindings/jsonrpc/client.js';
import { RestTransport } from '../../src/bindings/rest/client.js';
import { GrpcTransport } from '../../src/bindings/grpc/client.js';
import type { ClientTransport } from '../../src/transport/transport.js';
import { staticSecrets } from '../../src/security/auth/index.js';
import type { AgentCardConfig } from '../../src/server/agent.js';
import { textPart, userMessage } from '../../src/server/index.js';
import { BINDINGS, classify, driverFor, type Binding, type Driver } from './fixtures/drivers.js';
import { createTask } from './fixtures/resources.js';
import { securedAgent, startSecured, type SecureServer } from './fixtures/server.js';

/** A card with one API key scheme; anonymous callers are allowed too (an empty requirement). */
const card: AgentCardConfig = {
  name: 'Limited',
  description: 'Has limits',
  version: '1.0.0',
  capabilities: { streaming: true },
  securitySchemes: { key: { apiKeySecurityScheme: { location: 'header', name: 'X-API-Key' } } },
  securityRequirements: [{ schemes: { key: { list: [] } } }, { schemes: {} }],
  skills: [{ id: 'echo', name: 'Echo', description: 'Echoes', tags: ['t'] }],
};
const auth = {
  schemes: { key: { apiKey: staticSecrets({ alice: { id: 'alice' }, bob: { id: 'bob' } }) } },
};
const alice = { 'x-api-key': 'alice' };
const bob = { 'x-api-key': 'bob' };

const servers: SecureServer[] = [];
const drivers: Driver[] = [];
afterAll(async () => {
  for (const d of drivers) d.close();
  for (const s of servers) await s.close();
});

function driver(binding: Binding, server: SecureServer): Driver {
  const d = driverFor(binding, server);
  drivers.push(d);
  return d;
}

describe('[206] rate limit per caller', () => {
  let clock = 1_000_000;
  let server: SecureServer;
  beforeAll(async () => {
    server = await startSecured(securedAgent(card), {
      auth,
      limits: { rateLimit: { requests: 3, windowSeconds: 60, now: () => clock } },
    });
    servers.push(server);
  });

  it('answers 429 with Retry-After once a caller used its quota, on every binding alike', async () => {
    const rest = driver('HTTP+JSON', server);
    for (let i = 0; i < 3; i++) expect((await rest.call('ListTasks', {}, alice)).code).toBe('OK');
    const refused = await rest.call('ListTasks', {}, alice);
    expect([refused.code, refused.httpStatus]).toEqual(['RATE_LIMITED', 429]);
    expect(refused.headers?.get('retry-after')).toBe('20'); // 3 per 60 s: one token per 20 s
    expect(refused.message).toContain('rate limit of 3 requests per 60 s exceeded: retry in 20 s');
    // The quota is the caller's, not the binding's.
    const rpc = driver('JSONRPC', server);
    const viaRpc = await rpc.call('ListTasks', {}, alice);
    expect([viaRpc.code, viaRpc.httpStatus, viaRpc.headers?.get('retry-after')]).toEqual([
      'RATE_LIMITED',
      429,
      '20',
    ]);
    const viaGrpc = await driver('GRPC', server).call('ListTasks', {}, alice);
    expect([viaGrpc.code, viaGrpc.grpcStatus]).toEqual(['RATE_LIMITED', 8]);
    // Another caller has a bucket of its own.
    expect((await rest.call('ListTasks', {}, bob)).code).toBe('OK');
  });

  it('refills with time', async () => {
    const rest = driver('HTTP+JSON', server);
    clock += 20_000;
    expect((await rest.call('ListTasks', {}, alice)).code).toBe('OK');
    expect((await rest.call('ListTasks', {}, alice)).code).toBe('RATE_LIMITED');
  });

  it('limits anonymous callers by IP address', async () => {
    const rest = driver('HTTP+JSON', server);
    const codes: string[] = [];
    for (let i = 0; i < 4; i++) codes.push((await rest.call('ListTasks', {}, {})).code);
    expect(codes).toEqual(['OK', 'OK', 'OK', 'RATE_LIMITED']);
  });
});

/** A transport of `binding` sending `headers` on every call. */
function transport(binding: Binding, server: SecureServer, headers: Record<string, string>) {
  const options = { headers, timeoutMs: 5000 };
  if (binding === 'JSONRPC')
    return new JsonRpcTransport({ ...options, url: `${server.url}/a2a/jsonrpc` });
  if (binding === 'HTTP+JSON')
    return new RestTransport({ ...options, url: `${server.url}/a2a/rest` });
  return new GrpcTransport({ ...options, url: server.grpcUrl });
}

/** Opens a subscription and waits for its first event; the stream stays open. */
async function openStream(t: ClientTransport, id: string) {
  const iterator = t.stream('SubscribeToTask', { id })[Symbol.asyncIterator]();
  const first = await iterator.next();
  expect(first.done).toBe(false);
  return iterator;
}

describe.each(BINDINGS)('[206] concurrent streams per client address (%s)', (binding) => {
  let server: SecureServer;
  beforeAll(async () => {
    server = await startSecured(securedAgent(card), { auth, limits: { maxStreamsPerAddress: 2 } });
    servers.push(server);
  });

  it('refuses a third stream from one address, whoever the caller, until one closes', async () => {
    const d = driver(binding, server);
    const ids = [
      await createTask(d, alice, 'waiting'),
      await createTask(d, bob, 'waiting'),
      await createTask(d, bob, 'waiting'),
    ];
    const forAlice = transport(binding, server, alice);
    const forBob = transport(binding, server, bob);
    const first = await openStream(forAlice, ids[0] ?? '');
    const second = await openStream(forBob, ids[1] ?? '');
    const third = await d.call('SubscribeToTask', { id: ids[2] }, bob); // bob, other caller
    expect(third.code).toBe('RATE_LIMITED');
    expect(third.message).toContain(
      'too many open streams from 127.0.0.1: at most 2 at once per client address',
    );
    if (binding === 'GRPC') expect(third.grpcStatus).toBe(8);
    else expect(third.httpStatus).toBe(429);
    await first.return?.();
    let again = await d.call('SubscribeToTask', { id: ids[2] }, bob);
    for (let i = 0; i < 50 && again.code === 'RATE_LIMITED'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20)); // the server notices the close
      again = await d.call('SubscribeToTask', { id: ids[2] }, bob);
    }
    expect(again.code).toBe('OK');
    await second.return?.();
    for (const t of [forAlice, forBob]) if (t instanceof GrpcTransport) t.close();
  });
});

describe.each(BINDINGS)('[206] concurrent streams per caller (%s)', (binding) => {
  let server: SecureServer;
  beforeAll(async () => {
    server = await startSecured(securedAgent(card), { auth, limits: { maxConcurrentStreams: 2 } });
    servers.push(server);
  });

  it('refuses a third open stream with 429 and accepts one again once a stream closes', async () => {
    const d = driver(binding, server);
    const t = transport(binding, server, alice);
    const ids = [
      await createTask(d, alice, 'waiting'),
      await createTask(d, alice, 'waiting'),
      await createTask(d, alice, 'waiting'),
    ];
    const first = await openStream(t, ids[0] ?? '');
    const second = await openStream(t, ids[1] ?? '');
    const third = await d.call('SubscribeToTask', { id: ids[2] }, alice);
    expect(third.code).toBe('RATE_LIMITED');
    expect(third.message).toContain('too many open streams: at most 2 at once per caller');
    if (binding === 'GRPC') expect(third.grpcStatus).toBe(8);
    else expect(third.httpStatus).toBe(429);
    // bob has slots of his own; a sent message stream counts like a subscription.
    const bobs = await d.call('SendStreamingMessage', { message: userMessage('hi') }, bob);
    expect(bobs.code).toBe('OK');
    await first.return?.();
    let again = await d.call('SubscribeToTask', { id: ids[2] }, alice);
    for (let i = 0; i < 50 && again.code === 'RATE_LIMITED'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20)); // the server notices the close
      again = await d.call('SubscribeToTask', { id: ids[2] }, alice);
    }
    expect(again.code).toBe('OK');
    await second.return?.();
    if (t instanceof GrpcTransport) t.close();
  });
});

describe.each(BINDINGS)('[205] message and history limits (%s)', (binding) => {
  let server: SecureServer;
  beforeAll(async () => {
    server = await startSecured(securedAgent(card), {
      auth,
      limits: { maxPartsPerMessage: 3, maxMessageBytes: 2000, maxHistoryLength: 2 },
    });
    servers.push(server);
  });

  it('refuses a message with too many parts, naming the field', async () => {
    const d = driver(binding, server);
    const parts = [textPart('a'), textPart('b'), textPart('c'), textPart('d')];
    const outcome = await d.call('SendMessage', { message: userMessage(parts) }, alice);
    expect(outcome.code).toBe('INVALID_PARAMS');
    expect(outcome.message).toContain('the message has 4 parts; this agent accepts at most 3');
  });

  it('refuses a message larger than the limit', async () => {
    const d = driver(binding, server);
    const message = userMessage('x'.repeat(3000));
    const outcome = await d.call('SendStreamingMessage', { message }, alice);
    expect(outcome.message).toContain('the message exceeds the limit of 2000 bytes');
    // PAYLOAD_TOO_LARGE shares its code on JSON-RPC (-32600) and gRPC (RESOURCE_EXHAUSTED); its
    // ErrorInfo (domain a2a-kit, with the limit) tells it apart on every binding.
    expect(outcome.code).toBe('PAYLOAD_TOO_LARGE');
    if (binding === 'HTTP+JSON') expect(outcome.httpStatus).toBe(413);
  });

  it('returns at most the last maxHistoryLength messages of a task, whatever was asked', async () => {
    const d = driver(binding, server);
    const id = await createTask(d, alice, 'waiting');
    for (let turn = 0; turn < 2; turn++) {
      const next = await d.call(
        'SendMessage',
        { message: userMessage('wait', { taskId: id }) },
        alice,
      );
      expect(next.code).toBe('OK');
    }
    for (const params of [{ id }, { id, historyLength: 50 }]) {
      const task = await d.call('GetTask', params, alice);
      expect((task.result as { history: unknown[] }).history).toHaveLength(2);
    }
    const page = await d.call('ListTasks', {}, alice);
    for (const t of (page.result as { tasks: { history?: unknown[] }[] }).tasks) {
      expect(t.history?.length ?? 0).toBeLessThanOrEqual(2);
    }
  });
});

it('classifies a refusal the same way whichever binding reports it', () => {
  expect(classify(new Error('x')).code).toBe('LOCAL:Error');
});
