/**
 * The hand-checked SendMessage request (send-message-fast.ts) against the Zod schema: whenever it
 * answers, the schema accepts the same input and returns the same value, key order included.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SendMessageRequest } from './requests.js';
import { fastSendMessageRequest } from './send-message-fast.js';

const text = fc.oneof(
  { weight: 12, arbitrary: fc.constantFrom('m-1', 'ctx', 't-1', 'hello', 'ROLE_USER', '') },
  { weight: 2, arbitrary: fc.string() },
  { weight: 1, arbitrary: fc.constantFrom('x'.repeat(1024), 'x'.repeat(1025), '😀', '\ud800') },
);
const odd = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom(undefined, null, 1, true, 'ROLE_AGENT', 'ROLE_USER', 2, [], {}),
);
const maybe = <T>(a: fc.Arbitrary<T>) =>
  fc.oneof(
    { weight: 1, arbitrary: fc.constant(undefined) },
    { weight: 16, arbitrary: a },
    { weight: 1, arbitrary: odd },
  );

/** Null mostly, else a value of `a`. */
const rarely = <T>(a: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 8, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: a });

/** An object of these members (some left out), in this or another order, maybe an extra one. */
function object(members: [string, fc.Arbitrary<unknown>][]) {
  const count = members.length;
  return fc
    .tuple(
      fc.tuple(...members.map(([, a]) => a)),
      fc.array(fc.oneof(fc.constant(true), fc.constant(true), fc.boolean()), {
        minLength: count,
        maxLength: count,
      }),
      rarely(fc.array(fc.nat(), { minLength: count, maxLength: count })),
      rarely(
        fc.tuple(
          fc.constantFrom(
            'extra',
            'message_id',
            'context_id',
            'kind',
            'extensions',
            '__proto__',
            'configuration',
          ),
          fc.jsonValue({ maxDepth: 1 }),
        ),
      ),
    )
    .map(([values, kept, order, extra]) => {
      const indexes = members.map((_, i) => i);
      if (order) indexes.sort((a, b) => (order[a] as number) - (order[b] as number));
      const out: Record<string, unknown> = {};
      for (const i of indexes) {
        if (kept[i]) out[(members[i] as [string, unknown])[0]] = values[i];
      }
      if (extra) Object.defineProperty(out, extra[0], { value: extra[1], enumerable: true });
      return out;
    });
}
const metadata = maybe(
  fc.dictionary(text, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3, noNullPrototype: true }),
);
const part = fc.oneof(
  { weight: 8, arbitrary: object([['text', maybe(text)]]) },
  {
    weight: 1,
    arbitrary: object([
      ['text', maybe(text)],
      ['url', maybe(text)],
    ]),
  },
  { weight: 1, arbitrary: object([['data', maybe(fc.jsonValue({ maxDepth: 1 }))]]) },
);
const message = object([
  ['messageId', maybe(text)],
  ['role', maybe(fc.constantFrom('ROLE_USER', 'ROLE_USER', 'ROLE_AGENT', 1))],
  ['parts', maybe(fc.array(part, { minLength: 1, maxLength: 3 }))],
  ['taskId', maybe(text)],
  ['contextId', maybe(text)],
  ['metadata', metadata],
]);
const configuration = object([
  ['acceptedOutputModes', maybe(fc.array(maybe(text), { maxLength: 3 }))],
  ['returnImmediately', maybe(fc.boolean())],
  ['historyLength', maybe(fc.nat())],
]);
const request = object([
  ['tenant', maybe(text)],
  ['message', maybe(message)],
  ['configuration', maybe(configuration)],
  ['metadata', metadata],
]);

describe('fastSendMessageRequest', () => {
  it('answers only what the schema accepts, with exactly what the schema returns', () => {
    let answered = 0;
    fc.assert(
      fc.property(fc.oneof({ weight: 9, arbitrary: request }, odd), (input) => {
        const fast = fastSendMessageRequest(input);
        if (fast === undefined) return;
        answered++;
        const general = SendMessageRequest.safeParse(input);
        expect(general.success).toBe(true);
        expect(fast).toStrictEqual(general.data);
        expect(JSON.stringify(fast)).toBe(JSON.stringify(general.data));
      }),
      { numRuns: 5000 },
    );
    // Odd inputs mostly go to the schema (about 25 of the 5,000 are answered, a count that varies
    // from run to run, so no bound above one is safe); this only proves the property is not
    // vacuous. The next test covers the answered case at length.
    expect(answered).toBeGreaterThan(0);
  });

  it('answers the common request of any content exactly as the schema does', () => {
    const dict = fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 2 }), {
      maxKeys: 3,
      noNullPrototype: true,
    });
    const common = fc.record(
      {
        tenant: fc.string({ maxLength: 8 }),
        message: fc.record(
          {
            messageId: fc.string({ minLength: 1 }),
            contextId: fc.string(),
            role: fc.constant('ROLE_USER'),
            taskId: fc.string(),
            parts: fc.array(
              fc.record({ text: fc.string({ unit: 'binary' }) }, { noNullPrototype: true }),
              {
                minLength: 1,
                maxLength: 3,
              },
            ),
            metadata: dict,
            unknownMember: fc.jsonValue({ maxDepth: 1 }),
          },
          { requiredKeys: ['messageId', 'role', 'parts'], noNullPrototype: true },
        ),
        configuration: fc.record(
          {
            acceptedOutputModes: fc.array(fc.string(), { maxLength: 3 }),
            returnImmediately: fc.boolean(),
          },
          { requiredKeys: [], noNullPrototype: true },
        ),
        metadata: dict,
      },
      { requiredKeys: ['message'], noNullPrototype: true },
    );
    let answered = 0;
    fc.assert(
      fc.property(common, (input) => {
        const fast = fastSendMessageRequest(input);
        const general = SendMessageRequest.safeParse(input);
        expect(general.success).toBe(true);
        if (fast === undefined) return; // a `__proto__` metadata key: left to the schema
        answered++;
        expect(fast).toStrictEqual(general.data);
        expect(JSON.stringify(fast)).toBe(JSON.stringify(general.data));
      }),
      { numRuns: 3000 },
    );
    expect(answered).toBeGreaterThan(2500);
  });

  it('answers the echo request, and copies what it returns', () => {
    const input = {
      message: { messageId: 'm-1', role: 'ROLE_USER', parts: [{ text: 'hello' }] },
      metadata: { a: { b: 1 } },
    };
    const fast = fastSendMessageRequest(input);
    expect(fast).toStrictEqual(SendMessageRequest.parse(input));
    expect(fast?.message).not.toBe(input.message);
    expect(fast?.message.parts[0]).not.toBe(input.message.parts[0]);
  });

  it('answers a configuration of output modes and returnImmediately, and leaves the rest to Zod', () => {
    const message = { messageId: 'm-1', role: 'ROLE_USER', parts: [{ text: 'hello' }] };
    const modes = ['text/plain'];
    const input = {
      message,
      configuration: { acceptedOutputModes: modes, returnImmediately: true },
    };
    const fast = fastSendMessageRequest(input);
    expect(fast).toStrictEqual(SendMessageRequest.parse(input));
    expect(fast?.configuration?.acceptedOutputModes).not.toBe(modes);
    for (const configuration of [
      { historyLength: 2 },
      { returnImmediately: 'yes' },
      { acceptedOutputModes: [1] },
      { accepted_output_modes: ['text/plain'] },
      { taskPushNotificationConfig: { url: 'https://example.com/hook' } },
    ]) {
      expect(fastSendMessageRequest({ message, configuration })).toBeUndefined();
    }
  });
});
