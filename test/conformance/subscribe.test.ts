/**
 * SubscribeToTask and Last-Event-ID resumption (spec §3.1.6, requirements 113–116 of test/conformance/requirements.ts, 181), on every
 * binding: gRPC's equivalent is the `last-event-id` request metadata and the stream's
 * `a2a-first-event-id` (docs/deployment.md), whose event ids are cursors `B+n`.
 */
import { expect } from 'vitest';
import { scriptedAgent } from '../helpers/agents.js';
import { serverSuite, verifies } from '../helpers/bindings.js';
import type { BindingDriver, OpenResult, StreamEvent } from '../helpers/driver.js';
import { expectError, expectInvalidParams } from '../helpers/expect.js';
import {
  eventPosition,
  getTask,
  kinds,
  payloads,
  sendParams,
  sendTask,
  sleep,
  uid,
  waitForState,
} from '../helpers/requests.js';
import { startServer } from '../helpers/server.js';
import { textOf } from '../helpers/shapes.js';

const { agent, probe } = scriptedAgent();

function live(res: OpenResult) {
  if (!res.ok) return expect.fail(`stream refused: ${res.error.message}`);
  return res.stream;
}

/** The text of each artifact chunk among `events`. */
function chunkTexts(events: readonly StreamEvent[]): string[] {
  return payloads(events).flatMap((e) =>
    'artifactUpdate' in e ? [textOf(e.artifactUpdate.artifact)] : [],
  );
}

serverSuite(
  'SubscribeToTask',
  () => startServer(agent),
  () => {
    verifies(
      [113, 114],
      'a subscription starts with the current Task and ends at the terminal state',
      async (b) => {
        const gate = uid('gate');
        const task = await sendTask(b, `wait ${gate}`, {
          configuration: { returnImmediately: true },
        });
        await waitForState(b, task.id, 'TASK_STATE_WORKING');
        const stream = live(await b.open('SubscribeToTask', { id: task.id }));
        const first = await stream.next();
        expect(kinds(first ? [first] : [])).toEqual(['task:TASK_STATE_WORKING']);
        probe.gates.release(gate);
        expect(kinds(await stream.rest())).toEqual(['artifact', 'status:TASK_STATE_COMPLETED']);
      },
    );

    verifies(
      [113, 114],
      'a subscription to an input-required task follows it to the end',
      async (b) => {
        const asked = await sendTask(b, 'ask');
        const stream = live(await b.open('SubscribeToTask', { id: asked.id }));
        const first = await stream.next();
        expect(kinds(first ? [first] : [])).toEqual(['task:TASK_STATE_INPUT_REQUIRED']);
        await sendTask(b, 'Ada', { message: { taskId: asked.id } });
        expect(kinds(await stream.rest()).at(-1)).toBe('status:TASK_STATE_COMPLETED');
      },
    );

    verifies([115], 'subscribing to a terminal task gives UNSUPPORTED_OPERATION', async (b) => {
      const done = await sendTask(b, 'echo done');
      expectError(await b.open('SubscribeToTask', { id: done.id }), 'UNSUPPORTED_OPERATION');
    });

    verifies([116], 'subscribing to an unknown task gives TASK_NOT_FOUND', async (b) => {
      expectError(await b.open('SubscribeToTask', { id: uid('task') }), 'TASK_NOT_FOUND');
    });

    verifies(
      [181],
      'SubscribeToTask answers both GET and POST',
      async (b) => {
        const asked = await sendTask(b, 'ask');
        for (const verb of ['GET', 'POST'] as const) {
          const stream = live(await b.open('SubscribeToTask', { id: asked.id }, { verb }));
          const first = await stream.next();
          expect(kinds(first ? [first] : []), verb).toEqual(['task:TASK_STATE_INPUT_REQUIRED']);
          stream.close();
        }
      },
      { only: ['HTTP+JSON'] },
    );

    verifies(
      [112, 113],
      'Last-Event-ID resumes with exactly the missed events, then live ones',
      async (b) => {
        const gate = uid('gate');
        const first = live(await b.open('SendStreamingMessage', sendParams(`steps 4 ${gate}`)));
        probe.gates.release(gate, 2);
        const seen: StreamEvent[] = [];
        while (chunkTexts(seen).length < 2) {
          const event = await first.next();
          if (!event) return expect.fail('the stream closed early');
          seen.push(event);
        }
        first.close(); // the connection drops
        probe.gates.release(gate); // step 3 happens while nobody listens
        const taskId = payloads(seen).flatMap((e) => ('task' in e ? [e.task.id] : []))[0] ?? '';
        await waitForArtifactParts(b, taskId, 3);
        const lastId = seen.at(-1)?.id ?? '';
        const resumed = live(
          await b.open('SubscribeToTask', { id: taskId }, { lastEventId: lastId }),
        );
        const missed = await resumed.next();
        expect(eventPosition(missed?.id)).toBe(eventPosition(lastId) + 1);
        expect(chunkTexts(missed ? [missed] : [])).toEqual(['step 3']);
        probe.gates.release(gate); // step 4 arrives live
        const after = await resumed.rest();
        const all = [...seen, ...(missed ? [missed] : []), ...after];
        expect(all.map((e) => eventPosition(e.id))).toEqual(all.map((_, i) => i + 1));
        expect(chunkTexts(all)).toEqual(['step 1', 'step 2', 'step 3', 'step 4']);
        expect(kinds(all).at(-1)).toBe('status:TASK_STATE_COMPLETED');
      },
    );

    verifies(
      [114],
      'Last-Event-ID on a task that finished meanwhile replays the rest',
      async (b) => {
        const res = await b.stream('SendStreamingMessage', sendParams('chunks 3'), {
          abortAfter: 2,
        });
        if (!res.ok) return expect.fail(res.error.message);
        const taskId =
          payloads(res.events).flatMap((e) => ('task' in e ? [e.task.id] : []))[0] ?? '';
        await waitForState(b, taskId, 'TASK_STATE_COMPLETED');
        const rest = await b.stream(
          'SubscribeToTask',
          { id: taskId },
          { lastEventId: res.events[1]?.id ?? '' },
        );
        if (!rest.ok) return expect.fail(rest.error.message);
        expect(kinds(rest.events)).toEqual([
          'artifact',
          'artifact',
          'artifact',
          'status:TASK_STATE_COMPLETED',
        ]);
      },
    );

    verifies(
      [114, 160],
      'a Last-Event-ID beyond the last event is refused, not a stream that never ends',
      async (b) => {
        const gate = uid('gate');
        const task = await sendTask(b, `wait ${gate}`, {
          configuration: { returnImmediately: true },
        });
        const res = await b.open('SubscribeToTask', { id: task.id }, { lastEventId: '999' });
        probe.gates.release(gate);
        if (res.ok) {
          // Tolerated alternative: a stream that still ends when the task does.
          const events = await res.stream.rest(2000).finally(() => res.stream.close());
          expect(kinds(events).at(-1)).toBe('status:TASK_STATE_COMPLETED');
        } else {
          expectInvalidParams(res, 'Last-Event-ID');
        }
      },
    );

    verifies([160], 'a Last-Event-ID this server never sent is a validation error', async (b) => {
      const asked = await sendTask(b, 'ask');
      const res = await b.open('SubscribeToTask', { id: asked.id }, { lastEventId: 'not-an-id' });
      expectInvalidParams(res, 'Last-Event-ID');
    });

    verifies(
      [112, 113],
      'a resume after a recorded message (a gap in the log) loses and repeats nothing',
      async (b) => {
        // Log: 1 task, 2 working, 3 input-required, 4 message "again" (not streamed), 5 submitted,
        // 6 input-required, 7 message "Ada" (not streamed), 8 submitted, 9 working, 10 artifact,
        // 11 completed. The stream drops right after the event that follows the gap (5).
        const asked = await sendTask(b, 'ask');
        const stream = live(await b.open('SubscribeToTask', { id: asked.id }));
        const snapshot = await stream.next();
        expect(kinds(snapshot ? [snapshot] : [])).toEqual(['task:TASK_STATE_INPUT_REQUIRED']);
        await sendTask(b, 'again', { message: { taskId: asked.id } });
        const afterGap = await stream.next();
        expect(kinds(afterGap ? [afterGap] : [])).toEqual(['status:TASK_STATE_SUBMITTED']);
        stream.close();
        await sendTask(b, 'Ada', { message: { taskId: asked.id } });
        const rest = await b.stream(
          'SubscribeToTask',
          { id: asked.id },
          { lastEventId: afterGap?.id ?? '' },
        );
        if (!rest.ok) return expect.fail(rest.error.message);
        expect(kinds(rest.events)).toEqual([
          'status:TASK_STATE_INPUT_REQUIRED',
          'status:TASK_STATE_SUBMITTED',
          'status:TASK_STATE_WORKING',
          'artifact',
          'status:TASK_STATE_COMPLETED',
        ]);
        expect(chunkTexts(rest.events)).toEqual(['hello Ada']);
      },
    );
  },
);

/** Polls GetTask until its `steps` artifact has `parts` parts. */
async function waitForArtifactParts(b: BindingDriver, taskId: string, parts: number) {
  const deadline = Date.now() + 5000;
  while ((await getTask(b, taskId)).artifacts?.[0]?.parts.length !== parts) {
    if (Date.now() > deadline) return expect.fail(`task ${taskId} never got ${parts} parts`);
    await sleep(20);
  }
}
