import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { A2AError } from '../../core/errors.js';
import { OPERATIONS, type OperationName } from '../../core/operations.js';
import { camelCase } from '../../core/schemas/index.js';
import { protoFacts, requiredFromSource, type ProtoFacts } from './proto-facts.js';
import { proto } from './proto.js';
import { decodeStatus, encodeStatus, statusOfError } from './status.js';
import { PROTO_PACKAGE, REQUIRED_FIELDS, RPC_TYPES, SERVICE_NAME } from './wire.js';

const protoDir = fileURLToPath(new URL('../../../proto/', import.meta.url));
const spec = JSON.parse(readFileSync(`${protoDir}spec-facts.json`, 'utf8')) as ProtoFacts;

function withoutRequired(facts: ProtoFacts): ProtoFacts {
  return JSON.parse(
    JSON.stringify(facts, (k, v: unknown) => (k === 'required' && v === true ? undefined : v)),
  );
}

/**
 * The fields the A2A 1.1 draft adds (spec repo branch `dev-1.1`, `specification/a2a.proto`:
 * `generation`, spec dev-1.1 §3.2.7), with its numbers; served behind `generations: true`.
 */
const int64 = (number: number, optional = false): ProtoFacts['messages'][string][string] => ({
  number,
  type: 'TYPE_INT64',
  label: 'LABEL_OPTIONAL',
  ...(optional ? { optional: true as const } : {}),
});
const DRAFT_1_1: Record<string, Record<string, ProtoFacts['messages'][string][string]>> = {
  Task: { generation: int64(7) },
  TaskStatusUpdateEvent: { generation: int64(5) },
  TaskArtifactUpdateEvent: { generation: int64(7) },
  SendMessageConfiguration: { if_generation_match: int64(5, true) },
  GetTaskRequest: { current_generation: int64(4, true) },
};

function withDraft(facts: ProtoFacts): ProtoFacts {
  const messages = { ...facts.messages };
  for (const [name, fields] of Object.entries(DRAFT_1_1)) {
    messages[name] = { ...messages[name], ...fields };
  }
  return { ...facts, messages };
}

describe('proto/a2a.proto', () => {
  it('has exactly the wire facts of the spec proto plus the 1.1 draft generation fields', () => {
    const ours = protoFacts('a2a.proto', [protoDir], PROTO_PACKAGE);
    expect(ours).toEqual(withDraft(withoutRequired(spec)));
  });

  it('fills exactly the fields the spec marks REQUIRED', () => {
    const required: Record<string, string[]> = {};
    for (const [message, fields] of Object.entries(spec.messages)) {
      const names = Object.entries(fields)
        .filter(([, f]) => f.required)
        .map(([n]) => camelCase(n));
      if (names.length > 0) required[message] = names;
    }
    expect(REQUIRED_FIELDS).toEqual(required);
  });

  it('serves every operation as the rpc of the same name with the right types and streaming', () => {
    const service = proto().definition[SERVICE_NAME] as Record<
      string,
      { requestStream: boolean; responseStream: boolean; path: string }
    >;
    expect(Object.keys(service).sort()).toEqual(Object.keys(OPERATIONS).sort());
    for (const name of Object.keys(OPERATIONS) as OperationName[]) {
      expect(service[name]?.path).toBe(`/${SERVICE_NAME}/${name}`);
      expect(service[name]?.responseStream).toBe(OPERATIONS[name].streaming);
      const rpc = spec.rpcs[name];
      expect(rpc?.request).toBe(RPC_TYPES[name].request.split('.').pop());
      expect(rpc?.response).toBe(RPC_TYPES[name].response.split('.').pop());
    }
  });

  it('reads REQUIRED field behaviours out of proto source text', () => {
    const text = `message A { // {
      string x = 1 [(google.api.field_behavior) = REQUIRED];
      oneof o { string y = 2 [(google.api.field_behavior) = REQUIRED]; }
      message B { int32 z = 1 [(google.api.field_behavior) = REQUIRED]; }
      string w = 3;
    }`;
    expect(requiredFromSource(text)).toEqual({ A: ['x', 'y'], B: ['z'] });
  });
});

describe('google.rpc.Status details', () => {
  it('round-trips ErrorInfo and BadRequest through grpc-status-details-bin bytes', () => {
    const error = new A2AError('TASK_NOT_FOUND', 'Task t1 not found', {
      metadata: { taskId: 't1' },
      fieldViolations: [{ field: 'id', description: 'unknown' }],
    });
    const decoded = decodeStatus(encodeStatus(statusOfError(error)));
    expect(decoded).toEqual({
      code: 5,
      message: 'Task t1 not found',
      details: [
        {
          '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
          reason: 'TASK_NOT_FOUND',
          domain: 'a2a-protocol.org',
          metadata: { taskId: 't1' },
        },
        {
          '@type': 'type.googleapis.com/google.rpc.BadRequest',
          fieldViolations: [{ field: 'id', description: 'unknown' }],
        },
      ],
    });
  });

  it('keeps unknown detail types as their @type and rejects bytes that are no Status', () => {
    const bytes = proto()
      .message('google.rpc.Status')
      .serialize({
        code: 9,
        details: [
          { type_url: 'type.googleapis.com/google.rpc.RetryInfo', value: Buffer.from([8, 1]) },
        ],
      });
    expect(decodeStatus(bytes)).toEqual({
      code: 9,
      message: '',
      details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo' }],
    });
    expect(decodeStatus(Buffer.from([0xff, 0xff, 0xff]))).toBeUndefined();
  });
});
