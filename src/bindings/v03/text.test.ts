/**
 * The 0.3 writer (text.ts) against the converters it replaces on the server, in both dialects:
 * `JSON.stringify` of `jsonRpcResultTo03` / `eventTo03(…, 'jsonrpc')` for JSON-RPC, of
 * `protoResultTo03` / `eventTo03(…, 'proto')` for HTTP+JSON. Byte for byte the same text, and a
 * throw exactly when they throw, for tasks, messages, artifacts, parts (text, file, data),
 * metadata and status/artifact updates with every optional member, odd strings, values of the
 * wrong type or with no JSON form, holes in arrays and objects that are not plain.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { objectOf } from '../../../test/helpers/arbitraries.js';
import { TASK_STATES } from '../../../test/helpers/shapes.js';
import type { OperationName } from '../../core/operations.js';
import type { StreamResponse } from '../../core/schemas/index.js';
import { cardTo03 } from './card.js';
import { eventTo03 } from './convert.js';
import { jsonRpcResultTo03, protoResultTo03 } from './requests.js';
import { eventText03, jsonRpcResultText03, protoResultText03 } from './text.js';

type Outcome = string | { threw: true };

function outcome(write: () => string | undefined): Outcome | undefined {
  try {
    return write();
  } catch {
    return { threw: true };
  }
}

// Strings: mostly plain ids and the 1.0 words, sometimes any UTF-16 (escapes, pairs, lone halves).
const text = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      't-1',
      'ctx',
      '',
      'ROLE_USER',
      'ROLE_AGENT',
      'TASK_STATE_WORKING',
      'TASK_STATE_COMPLETED',
      'TASK_STATE_INPUT_REQUIRED',
      'toString',
      '__proto__',
    ),
  },
  { weight: 2, arbitrary: fc.string() },
  { weight: 1, arbitrary: fc.string({ unit: 'binary' }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      'a"b',
      'a\\b',
      'line\n',
      '\u0001',
      '😀',
      '\ud800',
      'x\udc00',
      '\u2028',
    ),
  },
);
// Anything in a member's place: any JSON, or a value JSON writes as null or leaves out.
const odd = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom(undefined, null, NaN, -0, 1e21, true, () => 1, Symbol('s'), new Date(0)),
  // eslint-disable-next-line no-sparse-arrays -- a hole, which JSON writes as null
  fc.constantFrom({ toJSON: () => undefined }, { toJSON: () => 'j' }, [1, , 2]),
);
const maybe = <T>(a: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight: 3, arbitrary: a }, odd);
const metadata = maybe(fc.dictionary(text, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }));

const object = (members: Record<string, fc.Arbitrary<unknown>>) => objectOf(members, text);
/** A list (sometimes with a hole or a non-object item), or anything else. */
const list = <T>(a: fc.Arbitrary<T>) =>
  maybe(
    fc
      .tuple(fc.array(fc.oneof({ weight: 6, arbitrary: a }, odd), { maxLength: 3 }), fc.nat(5))
      .map(([items, hole]) => {
        // A hole at `hole` (when inside): what `.map` skips and JSON writes as null.
        const out: unknown[] = [];
        items.forEach((item, i) => {
          if (i !== hole) out[i] = item;
        });
        out.length = items.length;
        return out;
      }),
  );

const part = object({
  text: maybe(text),
  raw: maybe(text),
  url: maybe(text),
  data: maybe(fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.dictionary(text, fc.integer()))),
  metadata,
  filename: maybe(text),
  mediaType: maybe(text),
});
const message = object({
  messageId: maybe(text),
  contextId: maybe(text),
  taskId: maybe(text),
  role: maybe(text),
  parts: list(part),
  metadata,
  extensions: list(text),
  referenceTaskIds: list(text),
});
const state = maybe(fc.constantFrom(...TASK_STATES, 'TASK_STATE_UNSPECIFIED', 'toString'));
const status = object({ state, message: maybe(message), timestamp: maybe(text) });
const artifact = object({
  artifactId: maybe(text),
  name: maybe(text),
  description: maybe(text),
  parts: list(part),
  metadata,
  extensions: list(text),
});
const task = object({
  id: maybe(text),
  contextId: maybe(text),
  status: maybe(status),
  artifacts: list(artifact),
  history: list(message),
  metadata,
});
const statusUpdate = object({
  taskId: maybe(text),
  contextId: maybe(text),
  status: maybe(status),
  metadata,
});
const artifactUpdate = object({
  taskId: maybe(text),
  contextId: maybe(text),
  artifact: maybe(artifact),
  append: maybe(fc.boolean()),
  lastChunk: maybe(fc.boolean()),
  metadata,
});
const event = fc.oneof(
  object({ task: maybe(task) }),
  object({ message: maybe(message) }),
  object({ statusUpdate: maybe(statusUpdate) }),
  object({ artifactUpdate: maybe(artifactUpdate) }),
  object({ task: maybe(task), message: maybe(message) }),
) as fc.Arbitrary<StreamResponse>; // odd on purpose: the writers must match on any input
const OPERATIONS: readonly OperationName[] = [
  'SendMessage',
  'GetTask',
  'CancelTask',
  'GetTaskPushNotificationConfig',
  'ListTaskPushNotificationConfigs',
  'DeleteTaskPushNotificationConfig',
  'GetExtendedAgentCard',
];
// HTTP+JSON answers every operation with a body (streams: each event as a send answers it).
const PROTO_OPERATIONS: readonly OperationName[] = [
  ...OPERATIONS,
  'SendStreamingMessage',
  'SubscribeToTask',
  'CreateTaskPushNotificationConfig',
  'ListTasks',
];
const result = fc.oneof(event, task, odd);

const general = (operation: OperationName, r: unknown) =>
  outcome(() => JSON.stringify(jsonRpcResultTo03(operation, r)) ?? '{}');
const generalProto = (operation: OperationName, r: unknown) =>
  outcome(() => JSON.stringify(protoResultTo03(operation, r, cardTo03)));

const taskId = '01a233af-3143-7f0b-86f3-0a3a22b4f899';
const contextId = '01a233af-3143-7047-bd8d-972a7862843f';
/** An echo task as the server answers it, with escapes in the texts. */
const echoAnswer = (state: string) => ({
  task: {
    id: taskId,
    contextId,
    status: { state, timestamp: '2026-12-01T22:17:29.155Z' },
    history: [
      {
        messageId: 'm-1',
        role: 'ROLE_USER',
        parts: [{ text: 'say "hi"\n😀' }, { url: 'https://x/f', mediaType: 'text/plain' }],
        taskId,
        contextId,
      },
    ],
    artifacts: [
      {
        artifactId: 'a-1',
        name: 'echo',
        parts: [{ data: { n: 1 } }, { data: 2 }, { raw: 'AAE=', filename: 'f.bin' }],
      },
    ],
    metadata: { k: ['v'] },
  },
});

describe('jsonRpcResultText03', () => {
  it('writes exactly JSON.stringify(jsonRpcResultTo03(…)), and throws exactly when it throws', () => {
    fc.assert(
      fc.property(fc.constantFrom(...OPERATIONS), result, (operation, r) => {
        expect(outcome(() => jsonRpcResultText03(operation, r))).toEqual(general(operation, r));
      }),
      { numRuns: 5000 },
    );
  });

  it('matches on an echo task as the server answers it, with escapes in the texts', () => {
    const answer = echoAnswer('TASK_STATE_COMPLETED');
    const written = jsonRpcResultText03('SendMessage', answer);
    expect(written).toBe(JSON.stringify(jsonRpcResultTo03('SendMessage', answer)));
    expect(JSON.parse(written)).toMatchObject({ kind: 'task', status: { state: 'completed' } });
  });
});

describe('protoResultText03', () => {
  it('writes exactly JSON.stringify(protoResultTo03(…)), and throws exactly when it throws', () => {
    fc.assert(
      fc.property(fc.constantFrom(...PROTO_OPERATIONS), result, (operation, r) => {
        const written = outcome(() => protoResultText03(operation, r, cardTo03));
        expect(written).toEqual(generalProto(operation, r));
      }),
      { numRuns: 5000 },
    );
  });

  it('matches on an echo task as the server answers it, in proto-JSON', () => {
    const answer = echoAnswer('TASK_STATE_CANCELED');
    const written = protoResultText03('SendMessage', answer, cardTo03);
    expect(written).toBe(JSON.stringify(protoResultTo03('SendMessage', answer, cardTo03)));
    expect(JSON.parse(written)).toMatchObject({
      task: {
        status: { state: 'TASK_STATE_CANCELLED' },
        history: [
          { content: [{ text: 'say "hi"\n😀' }, { file: { fileWithUri: 'https://x/f' } }] },
        ],
        artifacts: [
          { parts: [{ data: { data: { n: 1 } } }, { data: { data: { value: 2 } } }, {}] },
        ],
      },
    });
    const task = answer.task;
    expect(protoResultText03('GetTask', task, cardTo03)).toBe(
      JSON.stringify(protoResultTo03('GetTask', task, cardTo03)),
    );
  });
});

describe('eventText03', () => {
  for (const dialect of ['jsonrpc', 'proto'] as const) {
    it(`writes exactly JSON.stringify(eventTo03(…, '${dialect}')), and throws exactly when it throws`, () => {
      fc.assert(
        fc.property(event, (e) => {
          const expected = outcome(() => JSON.stringify(eventTo03(e, dialect)));
          expect(outcome(() => eventText03(e, dialect))).toEqual(expected);
        }),
        { numRuns: 5000 },
      );
    });

    it(`marks the end of the stream with final, as the converter does (${dialect})`, () => {
      const update = (state: string) => ({
        statusUpdate: { taskId: 't', contextId: 'c', status: { state }, metadata: { m: 1 } },
      });
      for (const state of [
        'TASK_STATE_WORKING',
        'TASK_STATE_INPUT_REQUIRED',
        'TASK_STATE_FAILED',
      ]) {
        const e = update(state);
        expect(eventText03(e, dialect)).toBe(
          JSON.stringify(eventTo03(e as unknown as StreamResponse, dialect)),
        );
      }
    });
  }
});
