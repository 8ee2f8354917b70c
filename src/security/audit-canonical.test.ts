/**
 * The fast writer of audit links (audit-canonical.ts) against the general RFC 8785 canonicalizer
 * (jcs.ts): byte for byte the same text, and an error exactly when the general one refuses, for
 * A2A events of every shape, with every optional member, unknown members, odd strings (escapes,
 * surrogates, lone surrogates), values of the wrong type, and objects that are not plain.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { objectOf } from '../../test/helpers/arbitraries.js';
import { canonicalLink, canonicalMessage } from './audit-canonical.js';
import { chainHash } from './audit-chain.js';
import { canonicalize } from './jcs.js';

/** What canonicalize gives, or the fact that it refused. */
function general(prev: unknown, seq: unknown, event: unknown): string | { refused: true } {
  try {
    return canonicalize({ event, prev, seq });
  } catch {
    return { refused: true };
  }
}

function fast(prev: unknown, seq: unknown, event: unknown): string | { refused: true } {
  try {
    return canonicalLink(prev, seq, event);
  } catch {
    return { refused: true };
  }
}

// Strings: mostly plain ids, sometimes any UTF-16 (escapes, pairs, lone surrogates).
const text = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('t-1', 'ctx', 'TASK_STATE_WORKING', 'ROLE_USER', '') },
  { weight: 2, arbitrary: fc.string() },
  { weight: 2, arbitrary: fc.string({ unit: 'binary' }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom('a"b', 'a\\b', 'line\n', '\u0001', '😀', '\ud800', 'x\udc00'),
  },
);
// Anything in a member's place: right type mostly, else any JSON or a value with no JSON form.
const odd = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom(undefined, NaN, Infinity, null, 1.5, -0, 1e21, true),
);
const maybe = <T>(a: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight: 3, arbitrary: a }, odd);
const metadata = maybe(fc.dictionary(text, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }));

const object = (members: Record<string, fc.Arbitrary<unknown>>) => objectOf(members, text);
const list = <T>(a: fc.Arbitrary<T>) => maybe(fc.array(a, { maxLength: 3 }));

const part = object({
  text: maybe(text),
  raw: maybe(text),
  url: maybe(text),
  data: maybe(fc.jsonValue({ maxDepth: 2 })),
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
const status = object({ state: maybe(text), message: maybe(message), timestamp: maybe(text) });
const artifact = object({
  artifactId: maybe(text),
  name: maybe(text),
  description: maybe(text),
  parts: list(part),
  metadata,
  extensions: list(text),
});
const generation = maybe(fc.nat());
const task = object({
  id: maybe(text),
  contextId: maybe(text),
  status: maybe(status),
  artifacts: list(artifact),
  history: list(message),
  metadata,
  generation,
});
const statusUpdate = object({
  taskId: maybe(text),
  contextId: maybe(text),
  status: maybe(status),
  metadata,
  generation,
});
const artifactUpdate = object({
  taskId: maybe(text),
  contextId: maybe(text),
  artifact: maybe(artifact),
  append: maybe(fc.boolean()),
  lastChunk: maybe(fc.boolean()),
  metadata,
  generation,
});
const event = fc.oneof(
  object({ task: maybe(task) }),
  object({ message: maybe(message) }),
  object({ statusUpdate: maybe(statusUpdate) }),
  object({ artifactUpdate: maybe(artifactUpdate) }),
  object({ task: maybe(task), statusUpdate: maybe(statusUpdate) }),
  odd,
);
const prev = fc.oneof({ weight: 4, arbitrary: text }, odd);
const seq = fc.oneof({ weight: 4, arbitrary: fc.nat() }, odd);

describe('canonicalMessage', () => {
  it('writes exactly what canonicalize writes for a message, and refuses what it refuses', () => {
    const refusedOr = (write: () => string) => {
      try {
        return write();
      } catch {
        return { refused: true };
      }
    };
    fc.assert(
      fc.property(fc.oneof({ weight: 5, arbitrary: message }, odd), (m) => {
        expect(refusedOr(() => canonicalMessage(m))).toEqual(refusedOr(() => canonicalize(m)));
      }),
      { numRuns: 3000 },
    );
  });
});

describe('canonicalLink', () => {
  it('writes exactly what canonicalize writes, and refuses exactly what it refuses', () => {
    fc.assert(
      fc.property(prev, seq, event, (p, s, e) => {
        expect(fast(p, s, e)).toEqual(general(p, s, e));
      }),
      { numRuns: 5000 },
    );
  });

  it('matches on the events a2a-kit writes', () => {
    const taskId = '01a23318-ec06-7586-9f08-44a61acf31b7';
    const contextId = '01a23318-ec06-7efe-b2de-0e0b442f4517';
    const timestamp = '2026-12-01T19:33:21.031Z';
    const events: unknown[] = [
      {
        task: {
          id: taskId,
          contextId,
          status: { state: 'TASK_STATE_SUBMITTED', timestamp },
          history: [
            { messageId: 'm1', role: 'ROLE_USER', parts: [{ text: 'hello' }], taskId, contextId },
          ],
        },
      },
      { statusUpdate: { taskId, contextId, status: { state: 'TASK_STATE_WORKING', timestamp } } },
      {
        artifactUpdate: {
          taskId,
          contextId,
          artifact: { artifactId: 'a1', name: 'echo', parts: [{ text: 'echo: "hi"\n' }] },
          append: true,
          lastChunk: false,
        },
      },
      { statusUpdate: { taskId, contextId, status: { state: 'TASK_STATE_COMPLETED' } } },
    ];
    let hash = '';
    events.forEach((e, i) => {
      expect(canonicalLink(hash, i + 1, e)).toBe(
        canonicalize({ event: e, prev: hash, seq: i + 1 }),
      );
      hash = chainHash(hash, i + 1, e);
    });
  });

  it('does not follow a polluted Object.prototype (it falls back to the general walk)', () => {
    const proto = Object.prototype as Record<string, unknown>;
    proto['taskId'] = 'polluted';
    try {
      const e = { statusUpdate: { contextId: 'c', status: { state: 'TASK_STATE_WORKING' } } };
      expect(canonicalLink('', 2, e)).toBe(canonicalize({ event: e, prev: '', seq: 2 }));
    } finally {
      delete proto['taskId'];
    }
  });
});
