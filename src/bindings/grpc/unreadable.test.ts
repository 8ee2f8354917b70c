import type { ServiceDefinition } from '@grpc/grpc-js';
import { describe, expect, it } from 'vitest';
import { A2AError } from '../../core/errors.js';
import { proto } from './proto.js';
import { tolerantDefinition, unreadableError } from './unreadable.js';
import { protoV03, V03_SERVICE_NAME } from './v03-proto.js';
import { SERVICE_NAME } from './wire.js';

const definition = tolerantDefinition(proto().definition[SERVICE_NAME] as ServiceDefinition);

describe('tolerantDefinition', () => {
  it('decodes valid requests as before', () => {
    const method = definition.GetTask;
    const bytes = method?.requestSerialize({ id: 'task-1' }) ?? Buffer.alloc(0);
    const request = method?.requestDeserialize(bytes);
    expect(request).toMatchObject({ id: 'task-1' });
    expect(unreadableError(request, 'GetTaskRequest')).toBeUndefined();
  });

  it('turns undecodable bytes into an INVALID_PARAMS error instead of throwing', () => {
    const request = definition.GetTask?.requestDeserialize(Buffer.from([0xff, 0xff, 0xff]));
    const error = unreadableError(request, 'GetTaskRequest');
    expect(error).toBeInstanceOf(A2AError);
    expect(error?.code).toBe('INVALID_PARAMS');
    expect(error?.message).toMatch(/^The request is not a valid GetTaskRequest message: /);
  });

  it('keeps every rpc of the service', () => {
    const original = proto().definition[SERVICE_NAME] as ServiceDefinition;
    expect(Object.keys(definition)).toEqual(Object.keys(original));
  });
});

describe('tolerantDefinition of the 0.3 service (a2a.v1.A2AService)', () => {
  const original = protoV03().definition[V03_SERVICE_NAME] as ServiceDefinition;
  const v03 = tolerantDefinition(original);

  it('keeps every 0.3 rpc, and 0.3 has no ListTasks', () => {
    expect(Object.keys(v03)).toEqual(Object.keys(original));
    expect(Object.keys(v03)).toContain('TaskSubscription');
    expect(Object.keys(v03)).not.toContain('ListTasks');
  });

  it('turns undecodable 0.3 bytes into INVALID_PARAMS naming the 0.3 message', () => {
    const request = v03.GetTask?.requestDeserialize(Buffer.from([0xff, 0xff, 0xff]));
    expect(unreadableError(request, 'GetTaskRequest')?.code).toBe('INVALID_PARAMS');
    const valid = v03.GetTask?.requestDeserialize(
      v03.GetTask.requestSerialize({ name: 'tasks/t1' }),
    );
    expect(valid).toMatchObject({ name: 'tasks/t1' });
  });
});
