import { Client, credentials, Metadata, type ServiceError } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userMessage } from '../../core/parts.js';
import type { A2AService } from '../../core/service.js';
import { createAgent } from '../../server/agent.js';
import { A2AServer } from '../../server/a2a-server.js';
import type { OperationName } from '../../core/operations.js';
import { a2aType } from './convert.js';
import { proto, type ProtoObject } from './proto.js';
import { serveGrpc, type GrpcServerHandle } from './serve.js';
import { decodeStatus, type StatusDetails } from './status.js';
import { RPC_TYPES, SERVICE_NAME } from './wire.js';

const agent = createAgent({
  card: {
    name: 'E',
    description: 'errors',
    version: '1',
    skills: [],
    capabilities: { extensions: [{ uri: 'urn:ext:a' }, { uri: 'urn:ext:b' }] },
  },
  async *execute({ task }) {
    yield task.completed('done');
  },
});

let a2a: A2AServer;
let server: GrpcServerHandle;
let raw: Client;

beforeAll(async () => {
  a2a = new A2AServer({ agent, logger: null });
  server = await serveGrpc(a2a);
  raw = new Client(server.url, credentials.createInsecure());
});

afterAll(async () => {
  raw.close();
  await server.close(1000);
  await a2a.close();
});

interface Outcome {
  error?: ServiceError;
  status?: StatusDetails | undefined;
  value?: ProtoObject;
  headers?: Metadata;
}

/** One unary call with exactly this request and metadata (no a2a-kit client in between). */
function call(
  name: OperationName,
  request: ProtoObject,
  metadata: Record<string, string> = { 'a2a-version': '1.0' },
  target: Client = raw,
): Promise<Outcome> {
  const method = (proto().definition[SERVICE_NAME] as Record<string, { path: string }>)[name];
  const md = new Metadata();
  for (const [k, v] of Object.entries(metadata)) md.set(k, v);
  return new Promise((resolve) => {
    const outcome: Outcome = {};
    const c = target.makeUnaryRequest(
      method?.path ?? '',
      (x: ProtoObject) => proto().message(a2aType(RPC_TYPES[name].request)).serialize(x),
      (b: Buffer) => ({ bytes: b }),
      request,
      md,
      (error, value) => {
        if (error) {
          const bin = error.metadata.get('grpc-status-details-bin')[0];
          outcome.error = error;
          outcome.status = bin instanceof Buffer ? decodeStatus(bin) : undefined;
        } else if (value) outcome.value = value;
        resolve(outcome);
      },
    );
    c.on('metadata', (headers) => (outcome.headers = headers));
  });
}

const errorInfo = (o: Outcome) =>
  o.status?.details.find((d) => String(d['@type']).endsWith('ErrorInfo'));

describe('gRPC binding: status codes, details and metadata on the wire', () => {
  it('refuses a call without a2a-version: FAILED_PRECONDITION + ErrorInfo VERSION_NOT_SUPPORTED', async () => {
    const o = await call('GetTask', { id: 'x' }, {});
    expect(o.error?.code).toBe(9);
    expect(errorInfo(o)).toMatchObject({
      reason: 'VERSION_NOT_SUPPORTED',
      domain: 'a2a-protocol.org',
    });
    expect(o.status?.code).toBe(9);
    const wrong = await call('GetTask', { id: 'x' }, { 'a2a-version': '0.3' });
    expect(errorInfo(wrong)).toMatchObject({
      reason: 'VERSION_NOT_SUPPORTED',
      metadata: { requestedVersion: '0.3' },
    });
  });

  it('ignores the patch number of a2a-version', async () => {
    const o = await call('GetTask', { id: 'x' }, { 'a2a-version': '1.0.7' });
    expect(o.error?.code).toBe(5);
  });

  it('TASK_NOT_FOUND is NOT_FOUND with the task id in ErrorInfo metadata', async () => {
    const o = await call('GetTask', { id: 'missing' });
    expect(o.error?.code).toBe(5);
    expect(o.error?.details).toBe('Task missing not found');
    expect(errorInfo(o)).toEqual({
      '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
      reason: 'TASK_NOT_FOUND',
      domain: 'a2a-protocol.org',
      metadata: { taskId: 'missing' },
    });
  });

  it('invalid input is INVALID_ARGUMENT with a BadRequest naming the fields', async () => {
    const o = await call('GetTask', { historyLength: -1, _historyLength: 'historyLength' });
    expect(o.error?.code).toBe(3);
    const bad = o.status?.details.find((d) => String(d['@type']).endsWith('BadRequest'));
    const fields = (bad?.fieldViolations as { field: string }[]).map((v) => v.field).sort();
    expect(fields).toEqual(['historyLength', 'id']);
    const send = await call('SendMessage', { message: { messageId: 'm', role: 'ROLE_USER' } });
    expect(send.error?.code).toBe(3);
    expect(send.error?.details).toMatch(/message\.parts/);
  });

  it('TASK_NOT_CANCELABLE is FAILED_PRECONDITION', async () => {
    const task = await a2a.sendMessage({ message: userMessage('x') }, {});
    const id = 'task' in task ? task.task.id : '';
    const o = await call('CancelTask', { id });
    expect(o.error?.code).toBe(9);
    expect(errorInfo(o)).toMatchObject({ reason: 'TASK_NOT_CANCELABLE', metadata: { taskId: id } });
  });

  it('echoes the activated extensions in the response metadata', async () => {
    const o = await call(
      'SendMessage',
      { message: { messageId: 'ext-1', role: 'ROLE_USER', parts: [{ text: 'hi' }] } },
      { 'a2a-version': '1.0', 'a2a-extensions': 'urn:ext:b, urn:unknown' },
    );
    expect(o.error).toBeUndefined();
    expect(o.headers?.get('a2a-extensions')).toEqual(['urn:ext:b']);
  });

  it('answers an internal failure with INTERNAL and a generic message, and keeps serving', async () => {
    const reported: unknown[] = [];
    const broken: A2AService = {
      invoke: () => Promise.reject(new Error('secret database password in stack')),
      stream: () => Promise.reject(new Error('also secret')),
      agentCard: () => a2a.agentCard([]),
    };
    const other = await serveGrpc(broken, { onError: (e) => reported.push(e) });
    const client = new Client(other.url, credentials.createInsecure());
    try {
      const o = await call('GetTask', { id: 'x' }, undefined, client);
      expect(o.error?.code).toBe(13);
      expect(o.error?.details).toBe('Internal error');
      expect(reported).toHaveLength(1);
      expect((await call('GetTask', { id: 'y' }, undefined, client)).error?.code).toBe(13);
    } finally {
      client.close();
      await other.close(1000);
    }
  });
});
