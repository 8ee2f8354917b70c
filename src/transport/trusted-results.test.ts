import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  Artifact,
  ListTasksResponse,
  Message,
  Part,
  SendMessageResponse,
  StreamResponse,
  Task,
  TaskArtifactUpdateEvent,
  TaskStatus,
  TaskStatusUpdateEvent,
} from '../core/schemas/index.js';
import { mutate } from '../../test/helpers/fuzz.js';
import { checkResult } from './http-exchange.js';
import { TransportError } from './errors.js';
import { isTrustedResult, TRUSTED_CHECKS } from './trusted-results.js';

type Json = Parameters<typeof mutate>[0];

const SCHEMAS: Record<keyof typeof TRUSTED_CHECKS, z.ZodType> = {
  SendMessageResponse,
  StreamResponse,
  Task,
  Message,
  ListTasksResponse,
  TaskStatus,
  Artifact,
  Part,
  TaskStatusUpdateEvent,
  TaskArtifactUpdateEvent,
};

/** The keys of a `message()` schema (a preprocess piped into an object, maybe refined). */
function shapeKeys(schema: z.ZodType): string[] {
  const out = (schema as unknown as { def: { out: { shape: Record<string, unknown> } } }).def.out;
  return Object.keys(out.shape).sort();
}

const anyJson = fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Json>;
/** Mostly `valid` (so both outcomes are common once nested), sometimes one of `others`. */
function mostly(
  valid: fc.Arbitrary<unknown>,
  ...others: fc.Arbitrary<unknown>[]
): fc.Arbitrary<Json> {
  return fc.oneof(
    { weight: 12, arbitrary: valid },
    { weight: 1, arbitrary: fc.oneof(...others) },
  ) as fc.Arbitrary<Json>;
}
const ids = mostly(fc.uuid(), fc.string({ maxLength: 4 }), fc.constant('x'.repeat(1025)));
const timestamps = mostly(
  fc
    .date({ min: new Date(0), max: new Date(4e12), noInvalidDate: true })
    .map((d) => d.toISOString()),
  fc.constantFrom(
    '2025-10-28T10:30:00Z',
    '2025-10-28T12:30:00.000+02:00',
    '2025-10-28t10:30:00.000Z',
    '2025-13-28T10:30:00.000Z',
    '2025-10-28T10:30:00.000z',
    'yesterday',
  ),
);
const part = mostly(
  fc.record({ text: fc.string({ maxLength: 6 }) }),
  fc.record({ data: anyJson, mediaType: fc.constant('application/json') }),
  fc.record({ raw: fc.constantFrom('aGk=', 'a b', ''), filename: fc.string({ maxLength: 3 }) }),
  fc.record({ url: fc.constantFrom('https://x/y', ''), metadata: fc.constant({ k: 1 }) }),
  fc.record({ text: fc.constant('a'), data: fc.constant(null) }),
);
const message = fc.record(
  {
    messageId: ids,
    contextId: ids,
    taskId: ids,
    role: mostly(
      fc.constantFrom<Json>('ROLE_USER', 'ROLE_AGENT'),
      fc.constantFrom<Json>('ROLE_UNSPECIFIED', 1, 'user'),
    ),
    parts: mostly(fc.array(part, { minLength: 1, maxLength: 2 }), fc.constant([])),
    metadata: mostly(
      fc.dictionary(fc.string({ maxLength: 3 }), anyJson, { maxKeys: 2 }),
      fc.constant([]),
    ),
    extensions: fc.array(fc.string({ maxLength: 3 }), { maxLength: 2 }),
    referenceTaskIds: fc.array(ids, { maxLength: 2 }),
  },
  { requiredKeys: ['messageId', 'role', 'parts'] },
);
const status = fc.record(
  {
    state: mostly(
      fc.constantFrom<Json>('TASK_STATE_COMPLETED', 'TASK_STATE_WORKING'),
      fc.constantFrom<Json>(3, 'DONE', 'TASK_STATE_UNSPECIFIED'),
    ),
    message,
    timestamp: timestamps,
  },
  { requiredKeys: ['state'] },
);
const artifact = fc.record(
  {
    artifactId: ids,
    name: fc.string({ maxLength: 4 }),
    description: fc.string({ maxLength: 4 }),
    parts: fc.array(part, { minLength: 1, maxLength: 2 }),
    extensions: fc.array(fc.string({ maxLength: 3 }), { maxLength: 1 }),
  },
  { requiredKeys: ['artifactId', 'parts'] },
);
const generation = mostly(fc.nat(), fc.constantFrom<Json>(-1, 1.5, '4', 2 ** 53));
const task = fc.record(
  {
    id: ids,
    contextId: ids,
    status,
    artifacts: fc.array(artifact, { maxLength: 2 }),
    history: fc.array(message, { maxLength: 2 }),
    metadata: fc.dictionary(fc.string({ maxLength: 3 }), anyJson, { maxKeys: 2 }),
    generation,
  },
  { requiredKeys: ['id', 'status'] },
);
const statusUpdate = fc.record(
  { taskId: ids, contextId: ids, status, generation },
  { requiredKeys: ['taskId', 'contextId', 'status'] },
);
const artifactUpdate = fc.record(
  { taskId: ids, contextId: ids, artifact, append: fc.boolean(), lastChunk: fc.boolean() },
  { requiredKeys: ['taskId', 'contextId', 'artifact'] },
);

/** Nearly valid values of each schema: the arbitrary above, then 0-3 mutations. */
const VALUES: Partial<Record<keyof typeof TRUSTED_CHECKS, fc.Arbitrary<Json>>> = {
  SendMessageResponse: fc.oneof(
    fc.record({ task }),
    fc.record({ message }),
    fc.record({ task, message }),
  ),
  StreamResponse: fc.oneof(
    fc.record({ task }),
    fc.record({ message }),
    fc.record({ statusUpdate }),
    fc.record({ artifactUpdate }),
    fc.constant({}),
  ),
  Task: task,
  Message: message,
  ListTasksResponse: fc.record(
    {
      tasks: fc.array(task, { maxLength: 2 }),
      nextPageToken: fc.constantFrom('', 'abc'),
      pageSize: mostly(fc.constant<Json>(50), fc.constantFrom<Json>('50', 2 ** 31)),
      totalSize: mostly(fc.constantFrom<Json>(0, -1), fc.constantFrom<Json>(1.5, -(2 ** 31) - 1)),
    },
    { requiredKeys: ['tasks', 'nextPageToken', 'pageSize'] },
  ),
};

const mutation = fc.array(
  fc.oneof(
    fc.record({ kind: fc.constant('drop' as const), pick: fc.nat() }),
    fc.record({ kind: fc.constant('retype' as const), pick: fc.nat(), value: anyJson }),
    fc.record({
      kind: fc.constant('add' as const),
      pick: fc.nat(),
      key: fc.constantFrom('__proto__', 'constructor', 'toString', 'context_id', 'kind', 'x'),
      value: anyJson,
    }),
  ),
  { minLength: 1, maxLength: 3 },
);
const mutations = fc.oneof(
  { weight: 2, arbitrary: fc.constant([]) },
  { weight: 1, arbitrary: mutation },
);

describe('trusted results (the fast check of trusted-results.ts)', () => {
  it('knows exactly the fields of each schema', () => {
    for (const [name, check] of Object.entries(TRUSTED_CHECKS)) {
      const schema = SCHEMAS[name as keyof typeof SCHEMAS];
      expect([...check.keys].sort(), name).toEqual(shapeKeys(schema));
    }
  });

  it('passes only values the schema returns unchanged (property)', () => {
    let trusted = 0;
    let total = 0;
    for (const [name, values] of Object.entries(VALUES)) {
      const schema = SCHEMAS[name as keyof typeof SCHEMAS];
      fc.assert(
        fc.property(values, mutations, (value, ms) => {
          const input = mutate(value, ms);
          total++;
          if (!isTrustedResult(schema, input)) return;
          trusted++;
          const parsed = schema.safeParse(input);
          expect(parsed.success).toBe(true);
          expect(parsed.data).toStrictEqual(input);
        }),
        { numRuns: 1500 },
      );
    }
    // Both sides are exercised: many values pass, many go to the schema.
    expect(trusted).toBeGreaterThan(total / 20);
    expect(trusted).toBeLessThan(total);
  });

  it('passes what the a2a-kit server writes for a blocking echo send', () => {
    const reply = {
      task: {
        id: '01a233b9-49ec-74ce-9b53-b856a610a156',
        contextId: '01a233b9-49ec-7ef6-991f-2c45c8071d61',
        status: { state: 'TASK_STATE_COMPLETED', timestamp: '2026-12-01T22:28:30.828Z' },
        history: [
          {
            messageId: 'm1',
            role: 'ROLE_USER',
            parts: [{ text: 'hello' }],
            taskId: '01a233b9-49ec-74ce-9b53-b856a610a156',
            contextId: '01a233b9-49ec-7ef6-991f-2c45c8071d61',
          },
        ],
        artifacts: [{ artifactId: 'a1', name: 'echo', parts: [{ text: 'echo: hello' }] }],
      },
    };
    expect(isTrustedResult(SendMessageResponse, reply)).toBe(true);
    expect(checkResult(SendMessageResponse, reply, 'SendMessage result', 'http://x')).toBe(reply);
  });

  it('leaves what needs the schema to it: conversions, unknown fields, errors', () => {
    const url = 'http://x';
    const converted = checkResult(
      Task,
      { id: 't', status: { state: 3, timestamp: '2025-10-28T12:30:00+02:00' }, extra: 1 },
      'GetTask result',
      url,
    );
    expect(converted).toEqual({
      id: 't',
      status: { state: 'TASK_STATE_COMPLETED', timestamp: '2025-10-28T10:30:00.000Z' },
    });
    const bad = () => checkResult(Task, { id: '', status: {} }, 'GetTask result', url);
    expect(bad).toThrow(TransportError);
    expect(bad).toThrow(/invalid GetTask result from http:\/\/x: id: is required/);
    // A schema without a fast check is always left to the schema.
    expect(isTrustedResult(Part, { text: 'x' })).toBe(false);
  });
});
