import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { artifactChunk, card, statusUpdate, task } from '../../test/support/fixtures.js';
import {
  frame,
  sendJson,
  startSse,
  startWireServer,
  type RecordedRequest,
  type WireHandler,
  type WireServer,
} from '../../test/support/wire-server.js';
import { userMessage } from '../core/parts.js';
import type { AgentInterface, StreamResponse } from '../core/schemas/index.js';
import { A2AClient, type A2AClientOptions } from './client.js';
import { isRepeat, type ResumeNotice } from './stream-resume.js';

/** The task's event log: SSE id = position + 1. */
const LOG: StreamResponse[] = [
  { task: task('t1', 'TASK_STATE_SUBMITTED') },
  statusUpdate('TASK_STATE_WORKING'),
  artifactChunk('a', false),
  artifactChunk('b'),
  artifactChunk('c'),
  statusUpdate('TASK_STATE_COMPLETED'),
];

let server: WireServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Writes log entries `from..to` (1-based ids, inclusive). */
function writeLog(
  res: ServerResponse,
  from: number,
  to: number,
  wrap: (e: StreamResponse) => unknown = (e) => e,
): void {
  for (let id = from; id <= to; id++) res.write(frame(wrap(LOG[id - 1] as StreamResponse), id));
}

async function connect(
  handler: WireHandler,
  iface: 'rest' | 'jsonrpc' = 'rest',
  options: A2AClientOptions = {},
) {
  server = await startWireServer(handler);
  const i: AgentInterface =
    iface === 'rest'
      ? { url: `${server.url}/rest`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' }
      : { url: `${server.url}/a2a`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' };
  const notices: ResumeNotice[] = [];
  const client = await A2AClient.connect(card([i]), {
    sleep: async () => undefined,
    onResume: (n) => notices.push(n),
    ...options,
  });
  return { s: server, client, notices };
}

/** Runs a stream to its end: the [SSE id, event] pairs, and the error that ended it, if any. */
async function drain(stream: AsyncIterable<StreamResponse> & { lastEventId: string | undefined }) {
  const seen: [string | undefined, StreamResponse][] = [];
  try {
    for await (const ev of stream) seen.push([stream.lastEventId, ev]);
    return { seen, error: undefined as unknown };
  } catch (error) {
    return { seen, error };
  }
}

const expectedLog = LOG.map((e, i) => [String(i + 1), e]);
const route = (r: RecordedRequest) => `${r.method} ${r.url}`;

describe('isRepeat', () => {
  it.each<[string, string | undefined, boolean]>([
    ['3', undefined, false],
    ['3', '3', true],
    ['2', '3', true],
    ['4', '3', false],
    ['10', '9', false],
    ['9', '10', true],
    ['b', 'a', false],
    ['a', 'a', true],
    // gRPC cursors B+n (core/event-cursor.ts): one base compares by count
    ['7+2', '7+1', false],
    ['7+1', '7+1', true],
    ['7', '7+1', true],
    ['7+1', '7', false],
    ['9+1', '7+3', false],
  ])('%s after %s → %s', (id, last, expected) => {
    expect(isRepeat(id, last)).toBe(expected);
  });
});

describe('stream resumption [122]', () => {
  it('resumes after the server drops the socket mid-event, without duplicates or gaps', async () => {
    const { s, client, notices } = await connect((req, res) => {
      startSse(res);
      if (req.url === '/rest/message:stream') {
        writeLog(res, 1, 3);
        res.write('id: 4\ndata: {"artifactUpd'); // half an event, then the connection dies
        setTimeout(() => res.socket?.destroy(), 20);
        return;
      }
      // The server replays from the id it was given; the client drops what it already has.
      const after = Number(req.headers['last-event-id']);
      writeLog(res, after, 6);
      res.end();
    });
    const { seen, error } = await drain(
      client.sendStreamingMessage({ message: userMessage('go') }),
    );
    expect(error).toBeUndefined();
    expect(seen).toEqual(expectedLog);
    expect(s.requests.map(route)).toEqual([
      'POST /rest/message:stream',
      'POST /rest/tasks/t1:subscribe',
    ]);
    expect(s.requests[1]?.headers['last-event-id']).toBe('3');
    expect(notices).toMatchObject([{ taskId: 't1', lastEventId: '3', attempt: 1 }]);
  });

  it('resumes a stream the server closed cleanly before the task settled', async () => {
    const { s, client } = await connect((req, res) => {
      startSse(res);
      if (req.url === '/rest/message:stream') writeLog(res, 1, 2);
      else writeLog(res, Number(req.headers['last-event-id']) + 1, 6);
      res.end();
    });
    const { seen, error } = await drain(
      client.sendStreamingMessage({ message: userMessage('go') }),
    );
    expect(error).toBeUndefined();
    expect(seen).toEqual(expectedLog);
    expect(s.requests[1]?.headers['last-event-id']).toBe('2');
  });

  it('keeps resuming while each connection makes progress, beyond maxAttempts in total', async () => {
    // Every connection delivers one new event and drops: 5 drops with a budget of 2 in a row.
    const { s, client } = await connect(
      (req, res) => {
        startSse(res);
        const next =
          req.url === '/rest/message:stream' ? 1 : Number(req.headers['last-event-id']) + 1;
        writeLog(res, next, next);
        if (next === 6) res.end();
        else setTimeout(() => res.socket?.destroy(), 10);
      },
      'rest',
      { resume: { maxAttempts: 2 } },
    );
    const { seen, error } = await drain(
      client.sendStreamingMessage({ message: userMessage('go') }),
    );
    expect(error).toBeUndefined();
    expect(seen).toEqual(expectedLog);
    expect(s.requests).toHaveLength(6);
  });

  it('gives up with STREAM_CLOSED after maxAttempts reconnections without progress', async () => {
    const { s, client, notices } = await connect(
      (req, res) => {
        if (req.url === '/rest/message:stream') {
          startSse(res);
          writeLog(res, 1, 2);
          return void setTimeout(() => res.socket?.destroy(), 10);
        }
        res.socket?.destroy(); // every reconnection fails
      },
      'rest',
      { resume: { maxAttempts: 3 } },
    );
    const { seen, error } = await drain(
      client.sendStreamingMessage({ message: userMessage('go') }),
    );
    expect(seen).toHaveLength(2);
    expect(error).toMatchObject({ name: 'TransportError', code: 'STREAM_CLOSED' });
    expect((error as Error).message).toMatch(/task t1 .* after 3 attempt/);
    expect(s.requests.filter((r) => r.url.endsWith(':subscribe'))).toHaveLength(3);
    expect(notices.map((n) => n.attempt)).toEqual([1, 2, 3]);
  });

  it('reads the final task with GetTask when it finished while the stream was down', async () => {
    const { s, client } = await connect((req, res) => {
      if (req.url === '/rest/message:stream') {
        startSse(res);
        writeLog(res, 1, 2);
        return void setTimeout(() => res.socket?.destroy(), 10);
      }
      if (req.url.endsWith(':subscribe')) {
        return sendJson(res, 400, {
          error: {
            code: 400,
            status: 'FAILED_PRECONDITION',
            message: 'task is terminal',
            details: [
              {
                '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
                reason: 'UNSUPPORTED_OPERATION',
                domain: 'a2a-protocol.org',
              },
            ],
          },
        });
      }
      return sendJson(res, 200, task('t1', 'TASK_STATE_COMPLETED'));
    });
    const { seen, error } = await drain(
      client.sendStreamingMessage({ message: userMessage('go') }),
    );
    expect(error).toBeUndefined();
    expect(seen.map(([, e]) => e)).toEqual([
      LOG[0],
      LOG[1],
      { task: task('t1', 'TASK_STATE_COMPLETED') },
    ]);
    expect(s.requests.map(route)).toEqual([
      'POST /rest/message:stream',
      'POST /rest/tasks/t1:subscribe',
      'GET /rest/tasks/t1',
    ]);
  });

  it.each<[string, StreamResponse[]]>([
    ['a terminal state', [LOG[0] as StreamResponse, statusUpdate('TASK_STATE_FAILED')]],
    ['INPUT_REQUIRED', [LOG[0] as StreamResponse, statusUpdate('TASK_STATE_INPUT_REQUIRED')]],
    [
      'a message-only reply',
      [{ message: { messageId: 'r1', role: 'ROLE_AGENT', parts: [{ text: 'hi' }] } }],
    ],
  ])('does not reconnect when the stream ends at %s', async (_name, events) => {
    const { s, client } = await connect((_req, res) => {
      startSse(res);
      events.forEach((e, i) => res.write(frame(e, i + 1)));
      res.end();
    });
    const { seen, error } = await drain(
      client.sendStreamingMessage({ message: userMessage('go') }),
    );
    expect(error).toBeUndefined();
    expect(seen).toHaveLength(events.length);
    expect(s.requests).toHaveLength(1);
  });

  it('ends a resumed SendStreamingMessage stream at INPUT_REQUIRED, as the original would', async () => {
    const { s, client } = await connect((req, res) => {
      startSse(res);
      if (req.url === '/rest/message:stream') {
        writeLog(res, 1, 2);
        return void setTimeout(() => res.socket?.destroy(), 10);
      }
      // SubscribeToTask stays open past INPUT_REQUIRED (it closes only at terminal states).
      res.write(frame(statusUpdate('TASK_STATE_INPUT_REQUIRED'), 3));
    });
    const { seen, error } = await drain(
      client.sendStreamingMessage({ message: userMessage('go') }),
    );
    expect(error).toBeUndefined();
    expect(seen.map(([id]) => id)).toEqual(['1', '2', '3']);
    expect(s.requests).toHaveLength(2);
  });

  it('passes on a spec error sent mid-stream instead of resuming or reading the task', async () => {
    // @a2a-js/sdk sends `event: error` with UNSUPPORTED_OPERATION when an agent breaks the stream order.
    const { s, client } = await connect((_req, res) => {
      startSse(res);
      writeLog(res, 1, 2);
      const info = {
        '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
        reason: 'UNSUPPORTED_OPERATION',
        domain: 'a2a-protocol.org',
      };
      res.end(
        frame(
          {
            error: {
              code: 400,
              status: 'FAILED_PRECONDITION',
              message: 'ordering',
              details: [info],
            },
          },
          undefined,
          'error',
        ),
      );
    });
    const { seen, error } = await drain(
      client.sendStreamingMessage({ message: userMessage('go') }),
    );
    expect(seen).toHaveLength(2);
    expect(error).toMatchObject({ name: 'A2AError', code: 'UNSUPPORTED_OPERATION' });
    expect(s.requests).toHaveLength(1);
  });

  it('passes on a spec error even after the task settled', async () => {
    const { client } = await connect((_req, res) => {
      startSse(res);
      res.write(frame({ task: task('t1', 'TASK_STATE_INPUT_REQUIRED') }, 1));
      res.end(
        frame({ error: { code: 500, status: 'INTERNAL', message: 'boom' } }, undefined, 'error'),
      );
    });
    const { error } = await drain(client.sendStreamingMessage({ message: userMessage('go') }));
    expect(error).toMatchObject({ name: 'A2AError', code: 'INTERNAL', message: 'boom' });
  });

  it('resumes over JSON-RPC with SubscribeToTask and Last-Event-ID', async () => {
    const { s, client } = await connect((req, res) => {
      const { id, method } = req.json as { id: number; method: string };
      const wrap = (e: StreamResponse) => ({ jsonrpc: '2.0', id, result: e });
      startSse(res);
      if (method === 'SendStreamingMessage') {
        writeLog(res, 1, 4, wrap);
        return void setTimeout(() => res.socket?.destroy(), 10);
      }
      writeLog(res, Number(req.headers['last-event-id']) + 1, 6, wrap);
      res.end();
    }, 'jsonrpc');
    const { seen, error } = await drain(
      client.sendStreamingMessage({ message: userMessage('go') }),
    );
    expect(error).toBeUndefined();
    expect(seen).toEqual(expectedLog);
    expect(s.requests[1]?.json).toMatchObject({ method: 'SubscribeToTask', params: { id: 't1' } });
    expect(s.requests[1]?.headers['last-event-id']).toBe('4');
  });

  it('treats a silent stream (idle timeout) as dropped and resumes it', async () => {
    const { s, client } = await connect(
      (req, res) => {
        startSse(res);
        if (req.url === '/rest/message:stream') return writeLog(res, 1, 2); // then silence
        writeLog(res, 3, 6);
        res.end();
      },
      'rest',
      { idleTimeoutMs: 100 },
    );
    const { seen, error } = await drain(
      client.sendStreamingMessage({ message: userMessage('go') }),
    );
    expect(error).toBeUndefined();
    expect(seen).toEqual(expectedLog);
    expect(s.requests).toHaveLength(2);
  });

  it('does not resume when disabled, nor after the caller aborts', async () => {
    const handler: WireHandler = (_req, res) => {
      startSse(res);
      writeLog(res, 1, 2);
      setTimeout(() => res.socket?.destroy(), 10);
    };
    const off = await connect(handler, 'rest', { resume: false });
    const first = await drain(off.client.sendStreamingMessage({ message: userMessage('go') }));
    expect(first.error).toMatchObject({ code: 'NETWORK' });
    expect(off.s.requests).toHaveLength(1);
    await off.s.close();

    const on = await connect((_req, res) => {
      startSse(res);
      writeLog(res, 1, 2);
    });
    const controller = new AbortController();
    const stream = on.client.sendStreamingMessage(
      { message: userMessage('go') },
      { signal: controller.signal },
    );
    let seen = 0;
    const error = await (async () => {
      for await (const _ of stream) if (++seen === 2) controller.abort();
    })().catch((e: unknown) => e);
    expect(seen).toBe(2);
    expect(error).toMatchObject({ code: 'ABORTED' });
    expect(on.s.requests).toHaveLength(1);
  });
});
