/**
 * The TCK agent's own tests: each in-band hook of the official TCK (a2aproject/a2a-tck 1.0-dev,
 * `scenarios/*.feature`) answered as the TCK expects, over every binding, with the server served
 * as startTckAgent serves it (serve() defaults). CI has no network and no TCK: these prove the
 * hooks; docs/conformance.md has the TCK run itself. Numbers are requirement numbers (test/conformance/requirements.ts).
 */
import { afterAll, beforeAll, expect } from 'vitest';
import { serverSuite, verifies, verifiesServer } from '../helpers/bindings.js';
import type { BindingName } from '../helpers/wire.js';
import { expectError, ok } from '../helpers/expect.js';
import { kinds, payloads, uid } from '../helpers/requests.js';
import { WireTask, messageOf, shape, taskOf, textOf } from '../helpers/shapes.js';
import type { BindingDriver } from '../helpers/driver.js';
import { startWebhook, waitFor } from '../integration/push-helpers.js';
import { hookFor, TCK_HOOKS } from './agent.js';
import { startTckAgent } from './start.js';

/** What the TCK agent serves (the TCK tests the bindings a card declares). */
const TCK_BINDINGS: readonly BindingName[] = ['JSONRPC', 'HTTP+JSON', 'GRPC'];

/** The TCK's message: a messageId `<prefix>-<session>` and one text part (tck_id()). */
function tckMessage(prefix: string, extra: Record<string, unknown> = {}) {
  return { role: 'ROLE_USER', parts: [{ text: 'TCK' }], messageId: uid(prefix), ...extra };
}

async function send(b: BindingDriver, prefix: string, extra: Record<string, unknown> = {}) {
  return ok(await b.call('SendMessage', { message: tckMessage(prefix, extra) }));
}

async function sendTask(b: BindingDriver, prefix: string, extra: Record<string, unknown> = {}) {
  return taskOf(await send(b, prefix, extra));
}

const state = (task: WireTask) => task.status.state;

serverSuite(
  'TCK agent',
  async () => {
    const internalErrors: unknown[] = [];
    const agent = await startTckAgent({
      logger: null,
      onError: (error) => internalErrors.push(error),
      timing: { streamingTimeoutMs: 100 },
    });
    return { url: agent.url, grpcUrl: agent.grpcUrl, internalErrors, close: () => agent.close() };
  },
  (server) => {
    verifiesServer(
      [1, 3, 6, 13],
      'the card lists the three bindings (the TCK tests those it declares) and streaming + push',
      async () => {
        const card = (await (await fetch(`${server.url}/.well-known/agent-card.json`)).json()) as {
          supportedInterfaces: { protocolBinding: string; protocolVersion: string }[];
          capabilities: Record<string, unknown>;
        };
        expect(card.supportedInterfaces.map((i) => i.protocolBinding)).toEqual([
          'JSONRPC',
          'HTTP+JSON',
          'GRPC',
        ]);
        expect(card.supportedInterfaces.every((i) => i.protocolVersion === '1.0')).toBe(true);
        // extendedAgentCard stays undeclared: the TCK's CARD-EXT-001 (served) and CARD-EXT-002
        // (NotConfigured) cannot both pass, while CORE-CAP-003 (unsupported) can.
        expect(card.capabilities).toEqual({ streaming: true, pushNotifications: true });
      },
    );

    verifiesServer([], 'the longest prefix wins; other messageIds get the default', async () => {
      expect(hookFor('tck-artifact-file-url-1a2b')).toBe(TCK_HOOKS['tck-artifact-file-url']);
      expect(hookFor('tck-artifact-file-1a2b')).toBe(TCK_HOOKS['tck-artifact-file']);
      expect(hookFor('tck-stream-artifact-text-1a2b')).toBe(TCK_HOOKS['tck-stream-artifact-text']);
      expect(hookFor('tck-send-003-1a2b')).toBeUndefined();
      expect(server.running.internalErrors).toEqual([]);
    });

    verifies([60, 63], 'tck-complete-task: a completed task saying "Hello from TCK"', async (b) => {
      const task = await sendTask(b, 'tck-complete-task');
      expect(state(task)).toBe('TASK_STATE_COMPLETED');
      expect(textOf(task.status.message ?? { parts: [] })).toBe('Hello from TCK');
    });

    verifies([60], 'any other messageId completes its task, naming the id', async (b) => {
      const message = tckMessage('tck-send-001');
      const task = taskOf(ok(await b.call('SendMessage', { message })));
      expect(state(task)).toBe('TASK_STATE_COMPLETED');
      expect(textOf(task.status.message ?? { parts: [] })).toBe(
        `Unhandled messageId prefix: ${message.messageId}`,
      );
    });

    verifies([60, 105], 'tck-message-response: a Message, no task', async (b) => {
      const message = messageOf(await send(b, 'tck-message-response'));
      expect(message.role).toBe('ROLE_AGENT');
      expect(message.taskId).toBeUndefined();
      expect(textOf(message)).toBe('Direct message response');
    });

    verifies([63, 241], 'tck-artifact-*: the artifact of each kind', async (b) => {
      const parts = async (prefix: string) => {
        const task = await sendTask(b, prefix);
        expect(state(task)).toBe('TASK_STATE_COMPLETED');
        expect(task.artifacts).toHaveLength(1);
        return task.artifacts?.[0]?.parts;
      };
      expect(await parts('tck-artifact-text')).toEqual([{ text: 'Generated text content' }]);
      expect(await parts('tck-artifact-file')).toEqual([
        { raw: 'dGNr', mediaType: 'text/plain', filename: 'output.txt' },
      ]);
      expect(await parts('tck-artifact-file-url')).toEqual([
        { url: 'https://example.com/output.txt', mediaType: 'text/plain', filename: 'output.txt' },
      ]);
      expect(await parts('tck-artifact-data')).toEqual([{ data: { key: 'value', count: 42 } }]);
    });

    verifies(
      [63, 69, 78, 82, 88],
      'tck-input-required pauses; follow-ups on the taskId continue it to completion',
      async (b) => {
        const task = await sendTask(b, 'tck-input-required');
        expect(state(task)).toBe('TASK_STATE_INPUT_REQUIRED');
        const again = await sendTask(b, 'tck-input-required', { taskId: task.id });
        expect([again.id, state(again)]).toEqual([task.id, 'TASK_STATE_INPUT_REQUIRED']);
        const done = await sendTask(b, 'tck-complete-task', { taskId: task.id });
        expect([done.id, done.contextId, state(done)]).toEqual([
          task.id,
          task.contextId,
          'TASK_STATE_COMPLETED',
        ]);
        const history = shape(WireTask, ok(await b.call('GetTask', { id: task.id }))).history ?? [];
        expect(history.filter((m) => m.role === 'ROLE_USER')).toHaveLength(3);
      },
    );

    verifies([100, 101], 'a tck-input-required task can be canceled, once', async (b) => {
      const task = await sendTask(b, 'tck-input-required');
      const canceled = shape(WireTask, ok(await b.call('CancelTask', { id: task.id })));
      expect(state(canceled)).toBe('TASK_STATE_CANCELED');
      const completed = await sendTask(b, 'tck-complete-task');
      expectError(await b.call('CancelTask', { id: completed.id }), 'TASK_NOT_CANCELABLE');
    });

    verifies([60], 'tck-reject-task: the task is REJECTED', async (b) => {
      expect(state(await sendTask(b, 'tck-reject-task'))).toBe('TASK_STATE_REJECTED');
    });

    verifies(
      [104, 106, 107, 109],
      'tck-stream-*: task, WORKING, the artifact, COMPLETED, in that order',
      async (b) => {
        const expected: Record<string, string> = {
          'tck-stream-001': 'Stream hello from TCK',
          'tck-stream-003': 'Stream task lifecycle',
          'tck-stream-ordering-001': 'Ordered output',
          'tck-stream-artifact-text': 'Streamed text content',
        };
        for (const [prefix, text] of Object.entries(expected)) {
          const stream = await b.stream('SendStreamingMessage', { message: tckMessage(prefix) });
          if (!stream.ok) return expect.fail(stream.error.message);
          expect(kinds(stream.events), prefix).toEqual([
            'task:TASK_STATE_SUBMITTED',
            'status:TASK_STATE_WORKING',
            'artifact',
            'status:TASK_STATE_COMPLETED',
          ]);
          const artifact = payloads(stream.events).find((e) => 'artifactUpdate' in e);
          expect(
            artifact && 'artifactUpdate' in artifact && artifact.artifactUpdate.artifact,
          ).toEqual(expect.objectContaining({ parts: [{ text }] }));
        }
        const file = await b.stream('SendStreamingMessage', {
          message: tckMessage('tck-stream-artifact-file'),
        });
        if (!file.ok) return expect.fail(file.error.message);
        expect(JSON.stringify(file.events)).toContain('"filename":"output.txt"');
      },
    );

    verifies(
      [105, 107],
      'tck-stream-002: task then COMPLETED, then the stream closes',
      async (b) => {
        const stream = await b.stream('SendStreamingMessage', {
          message: tckMessage('tck-stream-002'),
        });
        if (!stream.ok) return expect.fail(stream.error.message);
        expect(kinds(stream.events)).toEqual([
          'task:TASK_STATE_SUBMITTED',
          'status:TASK_STATE_COMPLETED',
        ]);
      },
    );

    verifies([109], 'tck-stream-artifact-chunked: two chunks of one artifact', async (b) => {
      const stream = await b.stream('SendStreamingMessage', {
        message: tckMessage('tck-stream-artifact-chunked'),
      });
      if (!stream.ok) return expect.fail(stream.error.message);
      const chunks = payloads(stream.events).flatMap((e) =>
        'artifactUpdate' in e ? [e.artifactUpdate] : [],
      );
      expect(chunks.map((c) => [textOf(c.artifact), c.append, c.lastChunk])).toEqual([
        ['chunk-1 ', true, undefined],
        ['chunk-2', true, true],
      ]);
      expect(new Set(chunks.map((c) => c.artifact.artifactId)).size).toBe(1);
    });

    verifies(
      [113, 114],
      'test-resubscribe-message-id runs long enough to subscribe: task first, then COMPLETED',
      async (b) => {
        const task = await sendTask(b, 'test-resubscribe-message-id', {});
        // A blocking send returns at the end; the task is COMPLETED by then, so go non-blocking.
        expect(state(task)).toBe('TASK_STATE_COMPLETED');
        const started = taskOf(
          ok(
            await b.call('SendMessage', {
              message: tckMessage('test-resubscribe-message-id'),
              configuration: { returnImmediately: true },
            }),
          ),
        );
        const stream = await b.stream('SubscribeToTask', { id: started.id });
        if (!stream.ok) return expect.fail(stream.error.message);
        const seen = kinds(stream.events);
        expect(seen[0]).toMatch(/^task:/);
        expect(seen.at(-1)).toBe('status:TASK_STATE_COMPLETED');
      },
    );

    verifies(
      [68, 75],
      'a reused messageId with a different message is processed as the new message (the TCK reuses tck_id() per session)',
      async (b) => {
        const messageId = uid('tck-complete-task');
        const first = taskOf(
          ok(await b.call('SendMessage', { message: { ...tckMessage(''), messageId } })),
        );
        const paused = await sendTask(b, 'tck-input-required');
        const followUp = taskOf(
          ok(
            await b.call('SendMessage', {
              message: { ...tckMessage(''), messageId, taskId: paused.id, parts: [{ text: 'x' }] },
            }),
          ),
        );
        expect(followUp.id).not.toBe(first.id);
        expect([followUp.id, state(followUp)]).toEqual([paused.id, 'TASK_STATE_COMPLETED']);
      },
    );

    verifies(
      [],
      'a byte-identical message sent again after its task settled gets a new task (the TCK repeats set-up messages)',
      async (b) => {
        const message = tckMessage('tck-complete-task');
        const first = taskOf(ok(await b.call('SendMessage', { message })));
        expect(state(first)).toBe('TASK_STATE_COMPLETED');
        const again = taskOf(ok(await b.call('SendMessage', { message })));
        expect(again.id).not.toBe(first.id);
        expect(state(again)).toBe('TASK_STATE_COMPLETED');
      },
    );

    verifies(
      [],
      "JSON-RPC refuses the TCK's text/plain body (JSONRPC-SSE-002) with 415 and -32600, not -32005 (§9.1, §9.5)",
      async (b) => {
        // The TCK posts Python's repr of the request (not JSON) as text/plain to `<url>/`.
        const body = `{'jsonrpc': '2.0', 'id': 1, 'method': 'SendMessage', 'params': {}}`;
        const reply = await b.raw('POST', '/', body, { 'Content-Type': 'text/plain' });
        expect(reply.status).toBe(415);
        expect(reply.json).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
      },
      { only: ['JSONRPC'] },
    );

    verifies(
      [],
      'JSON-RPC answers at its URL with a trailing slash (the TCK posts to `<url>/`)',
      async (b) => {
        const body = JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'SendMessage',
          params: { message: tckMessage('tck-complete-task') },
        });
        const reply = await b.raw('POST', '/', body);
        expect(reply.status).toBe(200);
        expect(reply.json).toMatchObject({ jsonrpc: '2.0', id: 1, result: { task: {} } });
      },
      { only: ['JSONRPC'] },
    );
  },
  // The TCK agent serves JSON-RPC, HTTP+JSON and gRPC only (its card says so).
  TCK_BINDINGS,
);

/** PUSH-DELIVER-001..003 of the TCK: a webhook on loopback gets the update with its credentials. */
let webhook: Awaited<ReturnType<typeof startWebhook>>;
beforeAll(async () => {
  webhook = await startWebhook();
});
afterAll(async () => {
  await webhook.close();
});

serverSuite(
  'TCK agent push',
  async () => {
    const agent = await startTckAgent({ logger: null });
    return {
      url: agent.url,
      grpcUrl: agent.grpcUrl,
      internalErrors: [],
      close: () => agent.close(),
    };
  },
  () => {
    verifies(
      [128, 139, 142, 143],
      'a config on a paused task gets the completion, with the Authorization it configured',
      async (b) => {
        const task = await sendTask(b, 'tck-input-required');
        const credentials = uid('tck-test-token');
        const path = `/webhook-${uid('hook')}`;
        const created = ok(
          await b.call('CreateTaskPushNotificationConfig', {
            taskId: task.id,
            id: uid('tck-push'),
            url: `${webhook.url}${path}`,
            authentication: { scheme: 'Bearer', credentials },
          }),
        );
        expect(created).toMatchObject({ taskId: task.id });
        await sendTask(b, 'tck-complete-task', { taskId: task.id });
        const mine = () => webhook.calls.filter((c) => c.path === path);
        await waitFor(
          () => mine().some((c) => c.body.includes('TASK_STATE_COMPLETED')),
          5000,
          'the COMPLETED notification',
        );
        const call = mine().find((c) => c.body.includes('TASK_STATE_COMPLETED'));
        expect(call?.headers.authorization).toBe(`Bearer ${credentials}`);
        expect(JSON.parse(call?.body ?? '{}')).toMatchObject({
          statusUpdate: { taskId: task.id, status: { state: 'TASK_STATE_COMPLETED' } },
        });
      },
    );

    verifies(
      [128, 147],
      'a config for a public https URL is accepted at creation (the TCK uses example.com)',
      async (b) => {
        const task = await sendTask(b, 'tck-complete-task');
        const result = await b.call('CreateTaskPushNotificationConfig', {
          taskId: task.id,
          id: uid('tck-push'),
          url: 'https://example.com/tck-push-webhook',
        });
        expect(ok(result)).toMatchObject({ url: 'https://example.com/tck-push-webhook' });
      },
    );
  },
  // The TCK agent serves JSON-RPC, HTTP+JSON and gRPC only (its card says so).
  TCK_BINDINGS,
);
