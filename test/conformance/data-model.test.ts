/** Data model: ProtoJSON out, lenient ProtoJSON in (spec §4, §5.5-5.7, requirements 42–59 of test/conformance/requirements.ts). */
import { expect } from 'vitest';
import { scriptedAgent } from '../helpers/agents.js';
import { BINDINGS, serverSuite, verifies, verifiesServer } from '../helpers/bindings.js';
import type { BindingDriver } from '../helpers/driver.js';
import { expectInvalidParams, ok } from '../helpers/expect.js';
import { getTask, kinds, payloads, sendParams, sendTask, uid } from '../helpers/requests.js';
import { startServer } from '../helpers/server.js';
import { TIMESTAMP, messageOf, taskOf, textOf } from '../helpers/shapes.js';

/** Every object key in a JSON text outside `metadata` / `data` values. */
function keysOf(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) keysOf(v, out);
  else if (typeof value === 'object' && value !== null) {
    for (const [k, v] of Object.entries(value)) {
      out.push(k);
      if (k !== 'metadata' && k !== 'data') keysOf(v, out);
    }
  }
  return out;
}

serverSuite(
  'data model',
  () => startServer(scriptedAgent().agent),
  (server) => {
    verifies(
      [42, 43, 44, 50, 52, 53, 54, 55, 56],
      'stream events and tasks are strict ProtoJSON: camelCase, string enums, Z timestamps, no kind',
      async (b) => {
        const res = await b.stream('SendStreamingMessage', sendParams('chunks 2'));
        if (!res.ok) return expect.fail(res.error.message);
        const events = payloads(res.events); // strict oracle: unknown keys (kind, snake_case) fail
        expect(kinds(res.events)).toContain('artifact');
        const first = events[0];
        const taskId = first && 'task' in first ? first.task.id : '';
        const task = await getTask(b, taskId);
        for (const key of keysOf([res.events.map((e) => e.event), task])) {
          expect(key, 'camelCase key').toMatch(/^[a-z][A-Za-z0-9]*$/);
          expect(key).not.toBe('kind');
        }
        expect(task.status.timestamp).toMatch(TIMESTAMP);
        expect(Math.abs(Date.parse(task.status.timestamp ?? '') - Date.now())).toBeLessThan(60_000);
        const ids = (task.artifacts ?? []).map((a) => a.artifactId);
        expect(new Set(ids).size).toBe(ids.length);
      },
    );

    verifies(
      [46, 47],
      'snake_case names, integer enums and unknown fields are accepted on input',
      async (b) => {
        const contextId = uid('ctx');
        const res = await b.call('SendMessage', {
          message: {
            message_id: uid('msg'),
            context_id: contextId,
            role: 1,
            parts: [{ text: 'echo snake', future_part_field: true }],
            futureMessageField: { nested: 1 },
          },
          configuration: { history_length: 1, return_immediately: false },
          futureRequestField: 'ignored',
        });
        const task = taskOf(ok(res));
        expect(task.contextId).toBe(contextId);
        expect(task.status.state).toBe('TASK_STATE_COMPLETED');
        expect(task.history?.length ?? 0).toBeLessThanOrEqual(1);
      },
      // JSON spellings: gRPC has field numbers and enum numbers (its unknown fields: grpc.test.ts).
      { only: ['JSONRPC', 'HTTP+JSON'] },
    );

    const missing: [string, Record<string, unknown>, string][] = [
      ['no message', {}, 'message'],
      [
        'no messageId',
        { message: { role: 'ROLE_USER', parts: [{ text: 'x' }] } },
        'message.messageId',
      ],
      ['no role', { message: { messageId: 'm', parts: [{ text: 'x' }] } }, 'message.role'],
      ['no parts', { message: { messageId: 'm', role: 'ROLE_USER' } }, 'message.parts'],
      [
        'empty parts',
        { message: { messageId: 'm', role: 'ROLE_USER', parts: [] } },
        'message.parts',
      ],
    ];
    verifies(
      [46, 53, 160],
      'a message missing a REQUIRED field is rejected naming it',
      async (b) => {
        for (const [, params, field] of missing) {
          expectInvalidParams(await b.call('SendMessage', params), field);
        }
      },
    );

    const partOf = async (b: BindingDriver, part: Record<string, unknown>) =>
      b.call('SendMessage', {
        message: { messageId: uid('msg'), role: 'ROLE_USER', parts: [part] },
      });

    verifies(
      [49, 51],
      'a part with two contents or raw that is not base64 is rejected',
      async (b) => {
        expectInvalidParams(await partOf(b, { text: 'a', data: { b: 1 } }), 'message.parts');
        const notBase64 = { raw: '***not base64***', mediaType: 'text/plain' };
        expectInvalidParams(await partOf(b, notBase64), 'message.parts');
      },
      // protobuf cannot carry two members of a oneof, and its bytes are not text.
      { only: ['JSONRPC', 'HTTP+JSON'] },
    );

    verifies([49, 51], 'a part must carry a content member; raw round-trips', async (b) => {
      expectInvalidParams(await partOf(b, { mediaType: 'text/plain' }), 'message.parts');
      const raw = Buffer.from('raw bytes').toString('base64');
      const task = await sendTask(b, 'echo', {
        message: { parts: [{ raw, mediaType: 'text/plain', filename: 'a.txt' }] },
      });
      expect(task.history?.[0]?.parts[0]).toEqual({
        raw,
        mediaType: 'text/plain',
        filename: 'a.txt',
      });
    });

    verifies([58], 'a message reply carries contextId and no taskId', async (b) => {
      const message = messageOf(ok(await b.call('SendMessage', sendParams('reply hi'))));
      expect(message.role).toBe('ROLE_AGENT');
      expect(message.contextId).toBeTruthy();
      expect(message.taskId).toBeUndefined();
      expect(textOf(message)).toBe('reply: hi');
    });

    verifies([59], 'UTF-8 text round-trips unchanged', async (b) => {
      const text = 'echo héllo wörld 🌍 你好 \u{1F600} ‮rtl';
      const type = b.name === 'JSONRPC' ? 'application/json' : 'application/a2a+json';
      // gRPC strings and NATS bodies (docs/bindings/nats.md) are UTF-8 by definition.
      const framed = b.name !== 'GRPC' && b.name !== 'NATS';
      const headers = framed ? { 'content-type': `${type}; charset=utf-8` } : {};
      const res = await b.call('SendMessage', sendParams(text), { headers });
      const task = taskOf(ok(res));
      expect(textOf(task.artifacts?.[0] ?? { parts: [] })).toBe(`echo: ${text}`);
      const charset = /charset=([^;]+)/i.exec(res.headers.get('content-type') ?? '');
      if (charset) expect(charset[1]?.toLowerCase()).toBe('utf-8');
    });

    verifiesServer([48, 186], 'every binding returns the same task', async () => {
      for (const creator of BINDINGS) {
        const task = await sendTask(server.driver(creator), `chunks 2 via ${creator}`);
        const seen = await Promise.all(BINDINGS.map((b) => getTask(server.driver(b), task.id)));
        for (const other of seen) expect(other).toEqual(seen[0]);
      }
    });
  },
);
