/**
 * The NATS custom binding (docs/bindings/nats.md; spec §5.8, §12) against a real NATS: the card
 * lists it after the HTTP bindings, A2AClient.connect picks it when asked, every core operation
 * answers, service parameters travel as headers (a2a-version, a2a-extensions, traceparent), errors
 * carry the catalog's mapping, streams end with an end message, SubscribeToTask resumes after
 * `a2a-last-event-id`, and bad input gets the spec's error; every request, refused ones too, has
 * its request line. Runs when A2A_TEST_NATS_URL is set.
 */
import { connect, headers, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { NATS_BINDING } from '../../src/bindings/nats/index.js';
import { A2AClient, A2AError, userMessage } from '../../src/client/index.js';
import type { OperationMiddleware } from '../../src/core/middleware.js';
import { serve, type ServeResult } from '../../src/node/index.js';
import { requestLog } from '../../src/server/request-log.js';
import { scriptedAgent } from '../helpers/agents.js';
import { describeNats, freshPrefix, NATS_URL } from './nats-helpers.js';

describeNats('NATS binding', () => {
  const subject = `${freshPrefix()}.agent`;
  const { agent, probe } = scriptedAgent();
  const seen: { operation: string; binding: string | undefined }[] = [];
  const record: OperationMiddleware = async (operation, params, call, next) => {
    seen.push({ operation, binding: call.protocolBinding });
    return next(params);
  };
  const lines: Record<string, unknown>[] = [];
  const push = (fields: object) => void lines.push({ ...fields });
  const log = { debug: push, info: push, warn: push, error: push };
  let running: ServeResult;
  let client: A2AClient;
  let raw: NatsConnection;

  beforeAll(async () => {
    running = await serve(agent, {
      port: 0,
      logger: null,
      nats: { servers: NATS_URL, subject },
      middleware: [record, requestLog(log)],
    });
    client = await A2AClient.connect(running.url, { preferredBinding: NATS_BINDING });
    raw = await connect({ servers: NATS_URL ?? '' });
  });
  afterAll(async () => {
    client?.close?.();
    await raw?.close();
    await running?.close();
  });

  /** A raw request, as any NATS client would send it. */
  async function request(
    operation: string,
    body: unknown,
    h: Record<string, string> = { 'a2a-version': '1.0' },
  ) {
    const hdrs = headers();
    for (const [k, v] of Object.entries(h)) hdrs.set(k, v);
    const data = typeof body === 'string' ? body : JSON.stringify(body);
    const reply = await raw.request(`${subject}.${operation}`, data, {
      headers: hdrs,
      timeout: 10_000,
    });
    return {
      kind: reply.headers?.get('a2a-kind'),
      headers: reply.headers,
      json: reply.data.length ? reply.json<{ error?: unknown; tasks?: unknown }>() : undefined,
    };
  }

  it('[spec §12.7] lists the NATS interface in the card after the HTTP bindings', async () => {
    const card = (await (await fetch(`${running.url}/.well-known/agent-card.json`)).json()) as {
      supportedInterfaces: { url: string; protocolBinding: string }[];
    };
    const bindings = card.supportedInterfaces.map((i) => i.protocolBinding);
    expect(bindings).toEqual(['JSONRPC', 'HTTP+JSON', NATS_BINDING]);
    expect(card.supportedInterfaces[2]?.url).toBe(`${NATS_URL}/${subject}`);
    expect(running.natsUrl).toBe(`${NATS_URL}/${subject}`);
  });

  it('[spec §3.1.1, §3.1.3] A2AClient.connect picks NATS when preferred; send and get answer over it', async () => {
    const result = await client.sendMessage({ message: userMessage('echo over nats') });
    if (!('task' in result)) throw new Error('expected a task');
    expect(result.task.status.state).toBe('TASK_STATE_COMPLETED');
    const task = await client.getTask({ id: result.task.id });
    expect(task.artifacts?.[0]?.parts[0]).toEqual({ text: 'echo: echo over nats' });
    expect(seen.filter((s) => s.operation === 'SendMessage').map((s) => s.binding)).toContain(
      NATS_BINDING,
    );
  });

  it('[spec §3.1.2, §12.5] streams every event in order and ends with the end message', async () => {
    const events = [];
    for await (const e of client.sendStreamingMessage({ message: userMessage('chunks 5') }))
      events.push(e);
    const chunks = events.filter((e) => 'artifactUpdate' in e);
    expect(chunks).toHaveLength(5);
    expect(events.at(-1)).toMatchObject({
      statusUpdate: { status: { state: 'TASK_STATE_COMPLETED' } },
    });
  });

  it('[spec §3.1.4-3.1.11] answers every other core operation', async () => {
    const sent = await client.sendMessage({ message: userMessage('ask') });
    if (!('task' in sent)) throw new Error('expected a task');
    const id = sent.task.id;
    expect((await client.listTasks({})).tasks.map((t) => t.id)).toContain(id);
    await expect(
      client.createTaskPushNotificationConfig({ taskId: id, url: 'https://push.example/x' }),
    ).rejects.toMatchObject({ code: 'PUSH_NOTIFICATION_NOT_SUPPORTED' });
    await expect(
      client.getTaskPushNotificationConfig({ taskId: id, id: 'x' }),
    ).rejects.toBeInstanceOf(A2AError);
    await expect(client.listTaskPushNotificationConfigs({ taskId: id })).rejects.toBeInstanceOf(
      A2AError,
    );
    await expect(
      client.deleteTaskPushNotificationConfig({ taskId: id, id: 'x' }),
    ).rejects.toBeInstanceOf(A2AError);
    await expect(client.getExtendedAgentCard({})).rejects.toMatchObject({
      code: expect.stringMatching(/EXTENDED_AGENT_CARD_NOT_CONFIGURED|UNSUPPORTED_OPERATION/),
    });
    const canceled = await client.cancelTask({ id });
    expect(canceled.status.state).toBe('TASK_STATE_CANCELED');
    await expect(client.getTask({ id: 'no-such-task' })).rejects.toMatchObject({
      code: 'TASK_NOT_FOUND',
    });
  });

  it('[spec §3.1.6, §12.5] SubscribeToTask resumes after a2a-last-event-id with no repeats', async () => {
    const sent = await client.sendMessage({
      message: userMessage('steps 3 g1'),
      configuration: { returnImmediately: true },
    });
    if (!('task' in sent)) throw new Error('expected a task');
    const id = sent.task.id;
    probe.gates.release('g1', 3);
    // Read everything once, then resubscribe after the second event's id.
    await expect
      .poll(async () => (await client.getTask({ id })).status.state, { timeout: 10_000 })
      .toBe('TASK_STATE_COMPLETED');
    const transport = (
      client as unknown as {
        pool: { transport: { stream: (...a: unknown[]) => AsyncIterable<{ id?: string }> } };
      }
    ).pool.transport;
    const all: string[] = [];
    for await (const item of transport.stream('SubscribeToTask', { id }, { lastEventId: '0' }))
      if (item.id) all.push(item.id);
    const after: string[] = [];
    for await (const item of transport.stream('SubscribeToTask', { id }, { lastEventId: all[1] }))
      if (item.id) after.push(item.id);
    expect(after).toEqual(all.slice(2));
  });

  it('[spec §3.2.6, §12.3] refuses a request without a2a-version with VERSION_NOT_SUPPORTED', async () => {
    const reply = await request('GetTask', { id: 'x' }, {});
    expect(reply.kind).toBe('error');
    expect(reply.json?.error).toMatchObject({
      status: 'FAILED_PRECONDITION',
      details: [{ reason: 'VERSION_NOT_SUPPORTED' }],
    });
    expect(reply.headers?.get('Nats-Service-Error-Code')).toBe('400');
  });

  it('[spec §12.4] maps errors: bad JSON, bad params, unknown method, unknown task', async () => {
    expect((await request('GetTask', '{not json')).json?.error).toMatchObject({
      code: 400,
      status: 'INVALID_ARGUMENT',
    });
    expect((await request('GetTask', { id: 5 })).json?.error).toMatchObject({
      status: 'INVALID_ARGUMENT',
    });
    expect((await request('NoSuchMethod', {})).json?.error).toMatchObject({
      code: 404,
      status: 'NOT_FOUND',
    });
    const missing = await request('GetTask', { id: 'no-such-task' });
    expect(missing.json?.error).toMatchObject({
      code: 404,
      details: [{ reason: 'TASK_NOT_FOUND', domain: 'a2a-protocol.org' }],
    });
    expect(missing.headers?.get('Nats-Service-Error-Code')).toBe('404');
  });

  it('[spec §3.2.6] accepts traceparent and a2a-extensions headers beside a2a-version', async () => {
    const reply = await request(
      'ListTasks',
      {},
      {
        'a2a-version': '1.0',
        traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
        'a2a-extensions': 'https://x.test/ext',
      },
    );
    expect(reply.kind).toBe('ok');
    expect(reply.json).toMatchObject({ tasks: expect.any(Array) });
  });

  it('writes one request line per request, refused ones too (core/refusal.ts)', async () => {
    const from = lines.length;
    await request('GetTask', { id: 'x' }, {});
    await request('GetTask', '{not json');
    await request('NoSuchMethod', {});
    await request('GetTask', { id: 'no-such-task' });
    const written = lines.slice(from).map((l) => [l['binding'], l['operation'], l['status']]);
    expect(written).toEqual([
      [NATS_BINDING, 'GetTask', 'VERSION_NOT_SUPPORTED'],
      [NATS_BINDING, 'GetTask', 'PARSE_ERROR'],
      [NATS_BINDING, undefined, 'METHOD_NOT_FOUND'],
      [NATS_BINDING, 'GetTask', 'TASK_NOT_FOUND'],
    ]);
  });
});
