/**
 * The retry check of the message index (fingerprint.ts, sent-messages.ts `isRetry`) against the
 * one it replaces: a message is a retry of the indexed one exactly when the two have the same
 * fingerprint. Proved with fast-check for messages of every shape a binding delivers (JSON values,
 * members present as `undefined`, any key order, escapes and lone surrogates), sent with taskId
 * and contextId absent, empty or set, recorded as the runner records them (`{ ...sent, taskId,
 * contextId }`, core/task-state.ts's projection for an answer), held live (memory store) or after
 * a JSON round trip (packed task, SQLite, PostgreSQL), compared with copies, reorderings and
 * every one-field change.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TaskProjection } from '../core/task-state.js';
import type { Message, Task } from '../core/schemas/index.js';
import {
  answerToken,
  indexToken,
  isReference,
  messageFingerprint,
  sentMessage,
} from './fingerprint.js';
import { SentMessage, isRetry } from './sent-messages.js';

const text = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('m-1', 'ctx', 'hello', '') },
  { weight: 2, arbitrary: fc.string() },
  { weight: 1, arbitrary: fc.string({ unit: 'binary' }) },
  { weight: 1, arbitrary: fc.constantFrom('a"b', 'line\n', '\u0000', '😀', '\ud800', 'x\udc00') },
);
const maybe = <T>(a: fc.Arbitrary<T>) =>
  fc.oneof(fc.constant('absent' as const), fc.constant(undefined), a);
const metadata = fc.dictionary(text, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 });
const part = fc.oneof(
  fc.record({ text, metadata: maybe(metadata) }),
  fc.record({ data: fc.jsonValue({ maxDepth: 2 }), mediaType: maybe(text) }),
  fc.record({ url: text, filename: maybe(text) }),
);
/** An id as a sender may put it: absent, present as undefined, empty, or set. */
const id = fc.constantFrom('absent', 'undefined', 'empty', 'set');

/** A message with its members in a shuffled order (`'absent'` members left out). */
const message = fc
  .record({
    messageId: fc.oneof(fc.constantFrom('m-1', 'm-2'), text),
    role: fc.constantFrom('ROLE_USER', 'ROLE_AGENT'),
    parts: fc.array(part, { minLength: 1, maxLength: 3 }),
    metadata: maybe(metadata),
    extensions: maybe(fc.array(text, { maxLength: 2 })),
    referenceTaskIds: maybe(fc.array(text, { maxLength: 2 })),
  })
  .chain((m) =>
    fc.shuffledSubarray(Object.keys(m), { minLength: Object.keys(m).length }).map((keys) => {
      const out: Record<string, unknown> = {};
      for (const k of keys) {
        const v = (m as Record<string, unknown>)[k];
        if (v !== 'absent') out[k] = v;
      }
      return out as unknown as Message;
    }),
  );

function withId(m: Message, member: 'taskId' | 'contextId', form: string, value: string): Message {
  const out = { ...m };
  if (form === 'undefined') out[member] = undefined;
  else if (form === 'empty') out[member] = '';
  else if (form === 'set') out[member] = value;
  return out;
}

/** Other messages to check against the sent one: copies, reorderings, one change each. */
function candidates(sent: Message, other: Message): Message[] {
  const reversed = Object.fromEntries(Object.entries(sent).reverse()) as unknown as Message;
  const out: Message[] = [sent, { ...sent }, reversed, JSON.parse(JSON.stringify(sent)), other];
  out.push({ ...sent, parts: [...sent.parts, { text: 'more' }] });
  out.push({ ...sent, metadata: { ...sent.metadata, extra: 1 } });
  for (const member of ['taskId', 'contextId'] as const) {
    for (const form of ['absent', 'undefined', 'empty', 'set']) {
      const changed = { ...sent };
      delete changed[member];
      out.push(withId(changed, member, form, sent[member] || 'other'));
    }
  }
  const { metadata: _m, ...noMetadata } = sent;
  out.push(noMetadata);
  return out;
}

/** The task as a store hands it back: live, or after a JSON round trip. */
function stored(task: Task, roundTrip: boolean): Task {
  return roundTrip ? (JSON.parse(JSON.stringify(task)) as Task) : task;
}

/** What the check says, against the fingerprint comparison it replaces. */
function check(token: string, task: Task, sent: Message, others: Message[]): void {
  const expected = messageFingerprint(sent);
  for (const candidate of others) {
    const retry = isRetry(token, task, new SentMessage(candidate));
    expect(retry).toBe(messageFingerprint(candidate) === expected);
  }
}

describe('the retry check (property)', () => {
  it('a new task: a retry exactly when the fingerprints are equal', () => {
    fc.assert(
      fc.property(message, message, id, id, fc.boolean(), (base, other, t, c, roundTrip) => {
        const sent = withId(
          withId(base, 'taskId', t === 'set' ? 'empty' : t, ''),
          'contextId',
          c,
          'c-1',
        );
        // As intake.ts starts a task: a fresh id, the sender's contextId or a fresh one.
        const taskId = 't-new';
        const contextId = sent.contextId || 'c-gen';
        const token = indexToken(sent, 0, taskId, contextId);
        expect(isReference(token)).toBe(true);
        const recorded: Message = { ...sent, taskId, contextId };
        const task: Task = {
          id: taskId,
          contextId,
          status: { state: 'TASK_STATE_WORKING' },
          history: [recorded, { messageId: 'a-1', role: 'ROLE_AGENT', parts: [{ text: 'hi' }] }],
        };
        check(token, stored(task, roundTrip), sent, candidates(sent, other));
      }),
      { numRuns: 150 },
    );
  });

  it('an answer to a paused task, recorded by the projection: the same', () => {
    fc.assert(
      fc.property(
        fc.array(message, { maxLength: 3 }),
        message,
        message,
        id,
        fc.boolean(),
        (history, base, other, c, roundTrip) => {
          const taskId = 't-1';
          const contextId = 'c-1';
          const before: Task = {
            id: taskId,
            contextId,
            status: { state: 'TASK_STATE_INPUT_REQUIRED' },
            history: history.map((m) => ({ ...m, taskId, contextId })),
          };
          const sent = withId({ ...base, taskId }, 'contextId', c, contextId);
          const token = answerToken(sent, before);
          // As the runner records it (task-runner.ts) and a store applies it (the projection).
          const projection = new TaskProjection(before);
          projection.apply({ message: { ...sent, taskId, contextId } });
          check(token, stored(projection.task, roundTrip), sent, candidates(sent, other));
        },
      ),
      { numRuns: 150 },
    );
  });

  it('an answer whose messageId is the last entry’s is indexed by fingerprint', () => {
    const task: Task = {
      id: 't',
      contextId: 'c',
      status: { state: 'TASK_STATE_INPUT_REQUIRED' },
      history: [{ messageId: 'same', role: 'ROLE_AGENT', parts: [{ text: 'which?' }] }],
    };
    const answer: Message = {
      messageId: 'same',
      role: 'ROLE_USER',
      parts: [{ text: 'this' }],
      taskId: 't',
    };
    expect(answerToken(answer, task)).toBe(messageFingerprint(answer));
    expect(answerToken({ ...answer, messageId: 'new' }, task)).toBe('@1va');
  });

  it('ids the task does not record as sent are indexed by fingerprint; references to nothing match nothing', () => {
    const odd = {
      messageId: 'm',
      role: 'ROLE_USER',
      parts: [{ text: 'x' }],
      taskId: null,
    } as unknown as Message;
    expect(indexToken(odd, 0, 't', 'c')).toBe(messageFingerprint(odd));
    const task: Task = {
      id: 't',
      contextId: 'c',
      status: { state: 'TASK_STATE_WORKING' },
      history: [],
    };
    expect(sentMessage('@3aa', task)).toBeUndefined();
    expect(isRetry('@3aa', task, new SentMessage(odd))).toBe(false);
    expect(isRetry('@0zz', task, new SentMessage(odd))).toBe(false);
  });
});
