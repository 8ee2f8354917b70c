/**
 * The objects the request path makes share their hidden classes (src/core/with-fields.ts): on
 * Node 20, `{ ...base, key: value }` gives every object made so a class of its own once the code
 * is warm, which fills the old generation with classes and makes every access site that sees
 * them megamorphic. Checked with V8's own predicate (`%HaveSameMap`, natives syntax turned on for
 * this file only) on the events two warm echo tasks recorded, and on the helper itself.
 */
import { setFlagsFromString } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { userMessage } from '../core/parts.js';
import type { StreamResponse } from '../core/schemas/index.js';
import { withFields } from '../core/with-fields.js';
import { MemoryTaskStore } from '../stores/memory/task-store.js';
import type { Scope } from '../stores/types.js';
import { createAgent } from './agent.js';
import { A2AServer } from './a2a-server.js';

setFlagsFromString('--allow-natives-syntax');
// eslint-disable-next-line @typescript-eslint/no-implied-eval -- `%` syntax is only parsed in code compiled after the flag
const sameMap = new Function('a', 'b', 'return %HaveSameMap(a, b);') as (
  a: object,
  b: object,
) => boolean;

/** Enough calls for V8 to have moved every site to its warm (inline-cached) path. */
const WARM = 3_000;

describe('hidden classes on the request path', () => {
  it('withFields gives copies of one shape one class, warm or cold', () => {
    const copy = (i: number) =>
      withFields({ state: 'TASK_STATE_WORKING' }, { timestamp: String(i) });
    for (let i = 0; i < WARM; i++) copy(i);
    expect(sameMap(copy(1), copy(2))).toBe(true);
    expect(copy(3)).toEqual({ state: 'TASK_STATE_WORKING', timestamp: '3' });
  });

  it('withFields replaces a member in place and copies an own __proto__ member as data', () => {
    expect(Object.keys(withFields({ a: 1, b: 2 }, { a: 3, c: 4 }))).toEqual(['a', 'b', 'c']);
    const hostile = JSON.parse('{"__proto__": {"polluted": true}, "x": 1}') as object;
    const copy = withFields(hostile, { y: 2 }) as Record<string, unknown>;
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.hasOwn(copy, '__proto__')).toBe(true);
    expect(copy['polluted']).toBeUndefined();
  });

  it('the events of two warm echo tasks share their classes (status, artifact, message)', async () => {
    const store = new MemoryTaskStore();
    const server = new A2AServer({
      logger: null,
      store,
      agent: createAgent({
        card: {
          name: 'Echo',
          description: 'echoes',
          version: '1',
          skills: [{ id: 'e', name: 'e', description: 'e', tags: ['t'] }],
        },
        // Events as an agent may write them by hand: the server adds the timestamp, a message's
        // ids. (Those the task handle builds have every member already.)
        async *execute({ task, message }) {
          const ids = { taskId: task.id, contextId: task.contextId };
          yield { statusUpdate: { ...ids, status: { state: 'TASK_STATE_WORKING' } } };
          yield {
            messageId: `m-${message.messageId}`,
            role: 'ROLE_AGENT',
            parts: [{ text: 'on it' }],
          };
          yield task.artifact(`echo: ${message.parts.length}`, { name: 'echo' });
          yield task.completed();
        },
      }),
    });
    const ids: string[] = [];
    for (let i = 0; i < WARM; i++) {
      const reply = await server.sendMessage({ message: userMessage(`hello ${i}`) }, {});
      if ('task' in reply) ids.push(reply.task.id);
    }
    expect(ids).toHaveLength(WARM);
    const scope: Scope = { tenant: '', owner: '' };
    const logOf = async (id: string) =>
      (await store.events(scope, id, 0)).map((entry) => entry.event);
    const [a, b] = [await logOf(ids[WARM - 2] as string), await logOf(ids[WARM - 1] as string)];
    expect(a.map(kindOf)).toEqual([
      'task',
      'statusUpdate',
      'message',
      'artifactUpdate',
      'statusUpdate',
    ]);
    expect(b.map(kindOf)).toEqual(a.map(kindOf));
    for (let i = 0; i < a.length; i++) {
      for (const [path, x, y] of pairs(a[i], b[i])) {
        expect({ event: i + 1, path, shared: sameMap(x, y) }).toEqual({
          event: i + 1,
          path,
          shared: true,
        });
      }
    }
  });
});

function kindOf(event: StreamResponse): string {
  return Object.keys(event)[0] as string;
}

/** Every pair of plain objects at the same place in `a` and `b` (arrays' items included). */
function pairs(a: unknown, b: unknown, path = '$'): [string, object, object][] {
  if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null) return [];
  const out: [string, object, object][] = Array.isArray(a) ? [] : [[path, a, b]];
  for (const key of Object.keys(a)) {
    out.push(
      ...pairs(
        (a as Record<string, unknown>)[key],
        (b as Record<string, unknown>)[key],
        `${path}.${key}`,
      ),
    );
  }
  return out;
}
