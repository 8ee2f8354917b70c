/**
 * ListTasks (spec §3.1.4, requirements 90–99 of test/conformance/requirements.ts). Each test works in its own tenant, so it sees only
 * the tasks it created.
 */
import { expect } from 'vitest';
import { scriptedAgent } from '../helpers/agents.js';
import { serverSuite, verifies } from '../helpers/bindings.js';
import type { BindingDriver } from '../helpers/driver.js';
import { expectInvalidParams, ok } from '../helpers/expect.js';
import { sendParams, sleep, uid } from '../helpers/requests.js';
import { startServer } from '../helpers/server.js';
import { WireListTasksResponse, shape, taskOf, type WireTask } from '../helpers/shapes.js';

async function create(b: BindingDriver, tenant: string, text: string, message = {}) {
  const res = await b.call('SendMessage', { ...sendParams(text, { message }), tenant });
  return taskOf(ok(res));
}

async function list(b: BindingDriver, tenant: string, query: Record<string, unknown> = {}) {
  return shape(WireListTasksResponse, ok(await b.call('ListTasks', { tenant, ...query })));
}

const ids = (tasks: readonly WireTask[]) => tasks.map((t) => t.id);

serverSuite(
  'ListTasks',
  () => startServer(scriptedAgent().agent),
  () => {
    verifies(
      [90, 93, 97],
      'a listing has tasks, nextPageToken "", pageSize and totalSize',
      async (b) => {
        const tenant = uid('t');
        expect(await list(b, tenant)).toEqual({
          tasks: [],
          nextPageToken: '',
          pageSize: 50,
          totalSize: 0,
        });
        const a = await create(b, tenant, 'echo a');
        const page = await list(b, tenant);
        expect(ids(page.tasks)).toEqual([a.id]);
        expect(page).toMatchObject({ nextPageToken: '', totalSize: 1 });
      },
    );

    verifies(
      [96],
      'pageSize defaults to 50',
      async (b) => {
        const tenant = uid('t');
        for (let i = 0; i < 52; i++) await create(b, tenant, `echo ${i}`);
        const page = await list(b, tenant);
        expect(page.tasks).toHaveLength(50);
        expect(page.totalSize).toBe(52);
        expect(page.nextPageToken).not.toBe('');
        const rest = await list(b, tenant, { pageToken: page.nextPageToken });
        expect(rest.tasks).toHaveLength(2);
        expect(rest.nextPageToken).toBe('');
      },
      { timeout: 20_000 },
    );

    verifies([91, 92, 93], 'cursor pages cover every task once, newest status first', async (b) => {
      const tenant = uid('t');
      const first = await create(b, tenant, 'ask');
      const created = [first];
      for (const text of ['echo b', 'echo c', 'echo d', 'echo e']) {
        await sleep(3); // distinct status timestamps (millisecond precision)
        created.push(await create(b, tenant, text));
      }
      await sleep(3);
      // Answering the first task makes its status the newest.
      await create(b, tenant, 'Ada', { taskId: first.id });
      const expected = [first.id, ...ids(created.slice(1)).reverse()];
      const seen: string[] = [];
      let token: string | undefined;
      do {
        const page = await list(
          b,
          tenant,
          token ? { pageSize: 2, pageToken: token } : { pageSize: 2 },
        );
        expect(page.pageSize).toBe(2);
        expect(page.totalSize).toBe(5);
        expect(page.tasks.length).toBeLessThanOrEqual(2);
        seen.push(...ids(page.tasks));
        token = page.nextPageToken;
      } while (token !== '');
      expect(seen).toEqual(expected);
    });

    verifies(
      [94, 95, 85],
      'artifacts only with includeArtifacts; historyLength applies per task',
      async (b) => {
        const tenant = uid('t');
        await create(b, tenant, 'echo with artifact');
        const plain = await list(b, tenant);
        for (const task of plain.tasks) expect(task).not.toHaveProperty('artifacts');
        const explicit = await list(b, tenant, { includeArtifacts: false });
        for (const task of explicit.tasks) expect(task).not.toHaveProperty('artifacts');
        const full = await list(b, tenant, { includeArtifacts: true });
        expect(full.tasks[0]?.artifacts).toHaveLength(1);
        const noHistory = await list(b, tenant, { historyLength: 0 });
        for (const task of noHistory.tasks) expect(task).not.toHaveProperty('history');
      },
    );

    verifies([98, 176], 'contextId and status filters apply', async (b) => {
      const tenant = uid('t');
      const contextId = uid('ctx');
      const inContext = await create(b, tenant, 'echo in', { contextId });
      const waiting = await create(b, tenant, 'ask', { contextId });
      await create(b, tenant, 'echo out');
      expect(ids((await list(b, tenant, { contextId })).tasks).sort()).toEqual(
        [inContext.id, waiting.id].sort(),
      );
      const byStatus = await list(b, tenant, { status: 'TASK_STATE_INPUT_REQUIRED' });
      expect(ids(byStatus.tasks)).toEqual([waiting.id]);
      const both = await list(b, tenant, { contextId, status: 'TASK_STATE_COMPLETED' });
      expect(ids(both.tasks)).toEqual([inContext.id]);
    });

    verifies(
      [45, 98, 176],
      'statusTimestampAfter keeps tasks at or after the instant, any offset',
      async (b) => {
        const tenant = uid('t');
        const older = await create(b, tenant, 'echo old');
        await sleep(20);
        const newer = await create(b, tenant, 'echo new');
        const at = newer.status.timestamp ?? '';
        expect(ids((await list(b, tenant, { statusTimestampAfter: at })).tasks)).toEqual([
          newer.id,
        ]);
        const shifted = new Date(Date.parse(at) + 2 * 3_600_000)
          .toISOString()
          .replace('Z', '+02:00');
        expect(ids((await list(b, tenant, { statusTimestampAfter: shifted })).tasks)).toEqual([
          newer.id,
        ]);
        const before = new Date(Date.parse(older.status.timestamp ?? '') - 1).toISOString();
        expect((await list(b, tenant, { statusTimestampAfter: before })).totalSize).toBe(2);
      },
    );

    const invalid: [string, Record<string, unknown>][] = [
      ['pageSize', { pageSize: 0 }],
      ['pageSize', { pageSize: 101 }],
      ['pageSize', { pageSize: -5 }],
      ['historyLength', { historyLength: -1 }],
      ['status', { status: 99 }],
      ['pageToken', { pageToken: 'not-a-token-we-issued' }],
    ];
    verifies([99, 160], 'out-of-range or malformed parameters are validation errors', async (b) => {
      for (const [field, query] of invalid)
        expectInvalidParams(await b.call('ListTasks', query), field);
    });

    const unparsable: [string, Record<string, unknown>][] = [
      ['status', { status: 'TASK_STATE_BOGUS' }],
      ['statusTimestampAfter', { statusTimestampAfter: 'yesterday' }],
    ];
    verifies(
      [99, 160],
      'an unknown state name or a timestamp that is no date is a validation error',
      async (b) => {
        for (const [field, query] of unparsable)
          expectInvalidParams(await b.call('ListTasks', query), field);
      },
      // Text forms: on gRPC the enum is a number and the Timestamp a message.
      { only: ['JSONRPC', 'HTTP+JSON'] },
    );
  },
);
