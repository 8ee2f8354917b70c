/** SendStreamingMessage: SSE and gRPC streams (spec §3.1.2, §3.5, §9.4.2, §10.7, §11.7, 104-112). */
import { expect } from 'vitest';
import { scriptedAgent } from '../helpers/agents.js';
import { serverSuite, verifies } from '../helpers/bindings.js';
import type { LiveStream, OpenResult, StreamEvent } from '../helpers/driver.js';
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
import { mediaType } from '../helpers/wire.js';

const { agent, probe } = scriptedAgent();

/** The stream of an ok open result. */
function live(res: OpenResult): LiveStream {
  if (!res.ok) return expect.fail(`stream refused: ${res.error.message}`);
  return res.stream;
}

async function nextEvent(stream: LiveStream): Promise<StreamEvent> {
  const event = await stream.next();
  if (!event) return expect.fail('the stream closed early');
  return event;
}

function taskIdOf(event: StreamEvent): string {
  const [payload] = payloads([event]);
  if (!payload || !('task' in payload)) return expect.fail('the first event is not a Task');
  return payload.task.id;
}

serverSuite(
  'streaming',
  () => startServer(agent),
  () => {
    const HTTP = ['JSONRPC', 'HTTP+JSON'] as const;

    verifies(
      [104, 172, 180],
      'a stream is served as text/event-stream',
      async (b) => {
        const opened = live(await b.open('SendStreamingMessage', sendParams('chunks 1')));
        expect(mediaType(opened.headers.get('content-type'))).toBe('text/event-stream');
        expect(kinds(await opened.rest()).at(-1)).toBe('status:TASK_STATE_COMPLETED');
      },
      // SSE is the HTTP bindings' framing; gRPC streams are HTTP/2 messages (grpc.test.ts).
      { only: HTTP },
    );

    verifies(
      [104, 106, 107, 184],
      'a task stream is the Task, then every update in order, closed at the terminal state',
      async (b) => {
        const opened = live(await b.open('SendStreamingMessage', sendParams('chunks 3')));
        const events = await opened.rest();
        expect(kinds(events)).toEqual([
          'task:TASK_STATE_SUBMITTED',
          'status:TASK_STATE_WORKING',
          'artifact',
          'artifact',
          'artifact',
          'status:TASK_STATE_COMPLETED',
        ]);
        const chunks = payloads(events).flatMap((e) =>
          'artifactUpdate' in e ? [e.artifactUpdate] : [],
        );
        expect(chunks.map((c) => [c.append ?? false, c.lastChunk ?? false])).toEqual([
          [false, false],
          [true, false],
          [true, true],
        ]);
        const task = await getTask(b, taskIdOf(events[0] as StreamEvent));
        expect(textOf(task.artifacts?.[0] ?? { parts: [] })).toBe('chunk 1 \nchunk 2 \nchunk 3 ');
      },
    );

    verifies(
      [109],
      'every SSE event has an id, increasing through the stream',
      async (b) => {
        const res = await b.stream('SendStreamingMessage', sendParams('chunks 4'));
        if (!res.ok) return expect.fail(res.error.message);
        const ids = res.events.map((e) => Number(e.id));
        expect(ids.every((id) => Number.isSafeInteger(id))).toBe(true);
        expect(ids).toEqual([...ids].sort((x, y) => x - y));
        expect(new Set(ids).size).toBe(ids.length);
      },
      // SSE `id:` lines: gRPC stream messages carry no id.
      { only: HTTP },
    );

    verifies(
      [105, 104],
      'the one event of a message stream has an SSE id too (issue 2: every event has an id)',
      async (b) => {
        const res = await b.stream('SendStreamingMessage', sendParams('reply with id'));
        if (!res.ok) return expect.fail(res.error.message);
        expect(res.events.map((e) => e.id)).toEqual([expect.any(String)]);
      },
      // SSE `id:` lines: gRPC stream messages carry no id.
      { only: HTTP },
    );

    verifies([105], 'a message reply is a stream of exactly one Message', async (b) => {
      const res = await b.stream('SendStreamingMessage', sendParams('reply streamed'));
      if (!res.ok) return expect.fail(res.error.message);
      expect(kinds(res.events)).toEqual(['message']);
    });

    verifies(
      [107],
      'a stream closes when the task needs input; the answer streams on',
      async (b) => {
        const asked = await b.stream('SendStreamingMessage', sendParams('ask'));
        if (!asked.ok) return expect.fail(asked.error.message);
        expect(kinds(asked.events).at(-1)).toBe('status:TASK_STATE_INPUT_REQUIRED');
        const taskId = taskIdOf(asked.events[0] as StreamEvent);
        const answer = await b.stream(
          'SendStreamingMessage',
          sendParams('Ada', { message: { taskId } }),
        );
        if (!answer.ok) return expect.fail(answer.error.message);
        expect(kinds(answer.events)[0]).toMatch(/^task:/);
        expect(kinds(answer.events).at(-1)).toBe('status:TASK_STATE_COMPLETED');
      },
    );

    verifies([108], 'progress arrives while the agent is still working', async (b) => {
      const gate = uid('gate');
      const stream = live(await b.open('SendStreamingMessage', sendParams(`steps 2 ${gate}`)));
      expect(kinds([await nextEvent(stream), await nextEvent(stream)])).toEqual([
        'task:TASK_STATE_SUBMITTED',
        'status:TASK_STATE_WORKING',
      ]);
      probe.gates.release(gate);
      expect(kinds([await nextEvent(stream)])).toEqual(['artifact']);
      probe.gates.release(gate);
      expect(kinds(await stream.rest())).toEqual(['artifact', 'status:TASK_STATE_COMPLETED']);
    });

    verifies(
      [110, 111],
      'concurrent streams on one task get the same events in the same order',
      async (b) => {
        const gate = uid('gate');
        const origin = live(await b.open('SendStreamingMessage', sendParams(`steps 3 ${gate}`)));
        const taskId = taskIdOf(await nextEvent(origin));
        // WORKING is out before the subscribers join: the agent then waits for the gate.
        expect(kinds([await nextEvent(origin)])).toEqual(['status:TASK_STATE_WORKING']);
        const first = live(await b.open('SubscribeToTask', { id: taskId }));
        const second = live(await b.open('SubscribeToTask', { id: taskId }));
        const snapshots = [await nextEvent(first), await nextEvent(second)];
        probe.gates.release(gate, 3);
        const [a, b1, b2] = await Promise.all([origin.rest(), first.rest(), second.rest()]);
        // Events and their ids compared one by one: both subscribers saw the same snapshot, then
        // exactly what the origin saw after WORKING. (gRPC ids are cursors counted from each
        // stream's first event: the origin's and a subscriber's name one event differently, so
        // they are compared by the log position they name.)
        expect(snapshots[1]).toEqual(snapshots[0]);
        expect(kinds(snapshots.slice(0, 1))).toEqual(['task:TASK_STATE_WORKING']);
        expect(b2).toEqual(b1);
        expect(b1.map((e) => e.event)).toEqual(a.map((e) => e.event));
        expect(b1.map((e) => eventPosition(e.id))).toEqual(a.map((e) => eventPosition(e.id)));
        expect(b1.every((e) => Number.isInteger(eventPosition(e.id)))).toBe(true);
        expect(kinds(b1)).toEqual([
          'artifact',
          'artifact',
          'artifact',
          'status:TASK_STATE_COMPLETED',
        ]);
      },
    );

    verifies(
      [112],
      'dropping one stream affects neither another stream nor the task',
      async (b) => {
        const gate = uid('gate');
        const dropped = live(await b.open('SendStreamingMessage', sendParams(`steps 2 ${gate}`)));
        const taskId = taskIdOf(await nextEvent(dropped));
        const other = live(await b.open('SubscribeToTask', { id: taskId }));
        await nextEvent(other);
        dropped.close();
        probe.gates.release(gate, 2);
        expect(kinds(await other.rest()).at(-1)).toBe('status:TASK_STATE_COMPLETED');
        const done = await waitForState(b, taskId, 'TASK_STATE_COMPLETED');
        expect(done.artifacts?.[0]?.parts).toHaveLength(2);
      },
    );

    verifies([112], 'a client that disconnects mid-stream does not cancel the task', async (b) => {
      const gate = uid('gate');
      const res = await b.stream('SendStreamingMessage', sendParams(`wait ${gate}`), {
        abortAfter: 2,
      });
      if (!res.ok) return expect.fail(res.error.message);
      const taskId = taskIdOf(res.events[0] as StreamEvent);
      probe.gates.release(gate);
      await waitForState(b, taskId, 'TASK_STATE_COMPLETED');
      const again = await sendTask(b, 'echo still serving');
      expect(again.status.state).toBe('TASK_STATE_COMPLETED');
    });
  },
);

serverSuite(
  'streaming keep-alive',
  () => startServer(agent, { keepAliveMs: 100 }),
  () => {
    verifies(
      [104],
      'an idle stream sends keep-alive comments and then its events',
      async (b) => {
        const gate = uid('gate');
        const stream = live(await b.open('SendStreamingMessage', sendParams(`wait ${gate}`)));
        await sleep(450);
        probe.gates.release(gate);
        expect(kinds(await stream.rest()).at(-1)).toBe('status:TASK_STATE_COMPLETED');
        expect(stream.comments).toBeGreaterThanOrEqual(2);
      },
      // SSE comment lines; gRPC keeps connections alive with HTTP/2 PING frames instead.
      { only: ['JSONRPC', 'HTTP+JSON'] },
    );
  },
);
