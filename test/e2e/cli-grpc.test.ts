/** `a2a --binding GRPC`: every task verb over the demo agent's gRPC interface, text and json. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemo } from '../../src/demo/main.js';
import type { ServeResult } from '../../src/node/index.js';
import type { AgentCard, ListTasksResponse, SendMessageResponse, Task } from '../../src/index.js';
import { cli, cliJson, jsonLines, startDemoAgent, taskIdIn } from './harness.js';

const GRPC = ['--binding', 'GRPC'];

let agent: ServeResult;
let url: string;

beforeAll(async () => {
  agent = await startDemoAgent();
  url = agent.url;
});
afterAll(() => agent.close());

async function sendTask(...args: string[]): Promise<Task> {
  const { code, json } = await cliJson<SendMessageResponse>(['send', url, ...GRPC, ...args]);
  expect(code).toBe(0);
  if (!('task' in json)) throw new Error('expected a task');
  return json.task;
}

describe('a2a --binding GRPC', () => {
  it('discover marks the gRPC interface as the one in use', async () => {
    const { code, stdout } = await cli(['discover', url, ...GRPC]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/3\.\s+GRPC\s+A2A 1\.0\s+127\.0\.0\.1:\d+ {2}← this client uses it/);
    const { json } = await cliJson<AgentCard>(['discover', url, ...GRPC]);
    // The 1.0 gRPC entry (the demo lists its 0.3 entries after the 1.0 ones).
    expect(json.supportedInterfaces[2]).toEqual({
      url: agent.grpcUrl,
      protocolBinding: 'GRPC',
      protocolVersion: '1.0',
    });
  });

  it('send prints the finished task, and exact ProtoJSON with -o json', async () => {
    const text = await cli(['send', url, ...GRPC, 'echo', 'over', 'grpc']);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^State\s+COMPLETED/m);
    expect(text.stdout).toContain('You said: over grpc');
    const task = await sendTask('echo', 'json');
    expect(task.artifacts?.[0]?.parts).toEqual([{ text: 'You said: json' }]);
  });

  it('send --stream prints each event, one ProtoJSON line each with -o json', async () => {
    const text = await cli(['send', '--stream', url, ...GRPC, 'story', '3']);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^final state COMPLETED · task \S+ · 3 artifact chunks$/m);
    const json = await cli(['send', '--stream', url, ...GRPC, 'story', '2', '-o', 'json']);
    const events = jsonLines(json.stdout);
    expect(Object.keys(events[0] ?? {})).toEqual(['task']);
    expect(events.filter((e) => 'artifactUpdate' in e)).toHaveLength(2);
  });

  it('get shows the same task as over JSON-RPC', async () => {
    const task = await sendTask('echo', 'get me');
    const overGrpc = await cliJson<Task>(['get', url, task.id, ...GRPC, '--history', '5']);
    const overRpc = await cliJson<Task>(['get', url, task.id, '--history', '5']);
    expect(overGrpc.code).toBe(0);
    expect(overGrpc.json).toEqual(overRpc.json);
    const missing = await cli(['get', url, 'no-such-task', ...GRPC]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('TASK_NOT_FOUND');
  });

  it('list filters by context and status', async () => {
    const first = await sendTask('echo', 'listed');
    const second = await sendTask('--context', first.contextId ?? '', 'book');
    const table = await cli(['list', url, ...GRPC, '--context', first.contextId ?? '']);
    expect(table.code).toBe(0);
    expect(table.stdout).toContain(first.id);
    expect(table.stdout).toMatch(new RegExp(`^${second.id}\\s+INPUT_REQUIRED`, 'm'));
    const { json } = await cliJson<ListTasksResponse>([
      'list',
      url,
      ...GRPC,
      '--context',
      first.contextId ?? '',
      '--status',
      'input-required',
    ]);
    expect(json.tasks.map((t) => t.id)).toEqual([second.id]);
  });

  it('cancel cancels twice (idempotent) but not a finished task', async () => {
    const running = await sendTask('--no-wait', 'slow', '30');
    const canceled = await cli(['cancel', url, ...GRPC, running.id]);
    expect(canceled.code).toBe(0);
    expect(canceled.stdout).toMatch(/^State\s+CANCELED/m);
    const again = await cliJson<Task>(['cancel', url, ...GRPC, running.id]);
    expect(again.json.status.state).toBe('TASK_STATE_CANCELED');
    const done = await sendTask('echo', 'finished');
    const refused = await cli(['cancel', url, ...GRPC, done.id]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('TASK_NOT_CANCELABLE');
  });

  it('subscribe follows a running task to the end; a finished one is refused', async () => {
    const sent = await cli(['send', url, ...GRPC, '--no-wait', 'slow', '1']);
    const id = taskIdIn(sent.stdout);
    const { code, stdout } = await cli(['subscribe', url, ...GRPC, id]);
    expect(code).toBe(0);
    expect(stdout.split('\n')[0]).toMatch(new RegExp(`^task ${id} · `));
    expect(stdout).toContain(`final state COMPLETED · task ${id}`);
    const finished = await cli(['subscribe', url, ...GRPC, id]);
    expect(finished.code).toBe(1);
    expect(finished.stderr).toContain('UNSUPPORTED_OPERATION');
  });

  it('demo walks the whole lifecycle over gRPC', async () => {
    const { code, stdout } = await cli(['demo', '--url', url, ...GRPC, '-o', 'json']);
    expect(code).toBe(0);
    expect(jsonLines(stdout).at(-1)).toMatchObject({ done: true, steps: 9 });
  });

  it('says so when the agent offers no gRPC interface (exit 3)', async () => {
    const httpOnly = await startDemo({ port: 0, grpc: false, logger: null });
    try {
      const { code, stderr } = await cli(['send', httpOnly.url, ...GRPC, 'echo', 'x']);
      expect(code).toBe(3);
      expect(stderr).toContain('agent does not offer GRPC 1.0');
      expect(stderr).toContain('pick one the agent offers with --binding (JSONRPC, HTTP+JSON)');
    } finally {
      await httpOnly.close();
    }
  });
});
