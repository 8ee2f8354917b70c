/** `a2a send | get | list | cancel | subscribe` end to end against the demo agent, text and json. */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServeResult } from '../../src/node/index.js';
import type { ListTasksResponse, SendMessageResponse, Task } from '../../src/index.js';
import { cli, cliJson, contextIdIn, jsonLines, startDemoAgent, taskIdIn } from './harness.js';

let agent: ServeResult;
let url: string;

beforeAll(async () => {
  agent = await startDemoAgent();
  url = agent.url;
});
afterAll(() => agent.close());

async function sendTask(...args: string[]): Promise<Task> {
  const { json } = await cliJson<SendMessageResponse>(['send', url, ...args]);
  if (!('task' in json)) throw new Error('expected a task');
  return json.task;
}

describe('a2a send (blocking)', () => {
  it('prints the finished task readably: state and artifact text', async () => {
    const { code, stdout } = await cli(['send', url, 'echo', 'hello', 'there']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^State\s+COMPLETED/m);
    expect(stdout).toContain('Artifacts (1)');
    expect(stdout).toContain('You said: hello there');
    expect(stdout).toContain(`a2a send ${url} --context ${contextIdIn(stdout)}`);
  });

  it('prints exact ProtoJSON with -o json', async () => {
    const task = await sendTask('echo', 'json please');
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(task.artifacts?.[0]?.parts[0]).toEqual({ text: 'You said: json please' });
  });

  it('shows a message reply when the agent creates no task', async () => {
    const text = await cli(['send', url, 'hi']);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('Message from agent (no task was created)');
    const { json } = await cliJson<SendMessageResponse>(['send', url, 'hi']);
    expect('message' in json && json.message.role).toBe('ROLE_AGENT');
  });

  it('continues a task with --task and a --data part', async () => {
    const asked = await cli(['send', url, 'book']);
    expect(asked.code).toBe(0);
    expect(asked.stdout).toMatch(/^State\s+INPUT_REQUIRED/m);
    expect(asked.stdout).toContain('Which date?');
    const id = taskIdIn(asked.stdout);
    expect(asked.stdout).toContain(`the agent needs input: a2a send ${url} --task ${id}`);
    const answered = await cli(['send', url, '--task', id, '--data', '{"date":"2026-12-24"}']);
    expect(answered.code).toBe(0);
    expect(taskIdIn(answered.stdout)).toBe(id);
    expect(answered.stdout).toMatch(/^State\s+COMPLETED/m);
    expect(answered.stdout).toMatch(/"date":"2026-12-24","status":"confirmed"/);
    expect(answered.stdout).toContain('Your table is booked for 2026-12-24');
  });

  it('passes --accept as acceptedOutputModes', async () => {
    const asked = await sendTask('book');
    const done = await sendTask('--task', asked.id, '--accept', 'application/json', '2026-12-24');
    expect(done.artifacts?.[0]?.parts).toEqual([
      expect.objectContaining({ data: expect.objectContaining({ date: '2026-12-24' }) }),
    ]);
  });

  it('refuses a message to a finished task with exit 1 and says what to do', async () => {
    const done = await sendTask('echo', 'done');
    const { code, stderr } = await cli(['send', url, '--task', done.id, 'more']);
    expect(code).toBe(1);
    expect(stderr).toContain('UNSUPPORTED_OPERATION');
    expect(stderr).toContain('hint: a finished task never changes');
  });

  it('starts a new task in the same conversation with --context', async () => {
    const first = await sendTask('echo', 'one');
    const second = await sendTask('--context', first.contextId ?? '', 'echo', 'two');
    expect(second.id).not.toBe(first.id);
    expect(second.contextId).toBe(first.contextId);
  });

  it('returns at once with --no-wait and points at subscribe and cancel', async () => {
    const { code, stdout } = await cli(['send', url, '--no-wait', 'slow', '30']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^State\s+(SUBMITTED|WORKING)/m);
    const id = taskIdIn(stdout);
    expect(stdout).toContain(`a2a subscribe ${url} ${id}`);
    const canceled = await cli(['cancel', url, id]);
    expect(canceled.code).toBe(0);
    expect(canceled.stdout).toMatch(/^State\s+CANCELED/m);
  });

  it('sends a file part with the media type guessed from the extension', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'a2a-cli-'));
    const notes = join(dir, 'notes.txt');
    await writeFile(notes, 'hello file');
    const task = await sendTask('--file', notes, '--history', '10', 'echo', 'see file');
    const sent = task.history?.find((m) => m.role === 'ROLE_USER');
    expect(sent?.parts[1]).toEqual({
      raw: Buffer.from('hello file').toString('base64'),
      mediaType: 'text/plain',
      filename: 'notes.txt',
    });
    // The demo agent accepts text/plain and application/json only (its defaultInputModes).
    const image = join(dir, 'pixel.png');
    await writeFile(image, Buffer.from([137, 80, 78, 71]));
    const refused = await cli(['send', url, '--file', image]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('CONTENT_TYPE_NOT_SUPPORTED');
    expect(refused.stderr).toContain('image/png');
  });

  it('exits 1 when the task ends REJECTED or FAILED', async () => {
    expect((await cli(['send', url, 'reject'])).code).toBe(1);
    const failed = await cli(['send', url, 'fail']);
    expect(failed.code).toBe(1);
    expect(failed.stdout).toMatch(/^State\s+FAILED/m);
  });
});

describe('a2a send --stream', () => {
  it('prints one plain line per event when stdout is not a terminal', async () => {
    const { code, stdout } = await cli(['send', '--stream', url, 'story', '3']);
    expect(code).toBe(0);
    const lines = stdout.split('\n');
    expect(lines[0]).toMatch(/^task \S+ · context \S+ · SUBMITTED$/);
    expect(lines).toContain('status WORKING · agent: Telling a story in 3 chunks.');
    expect(lines.filter((l) => l.startsWith('artifact story'))).toHaveLength(3);
    expect(stdout).toContain('chunk 3 (append, last): So the first one fetched');
    expect(stdout).toMatch(/^final state COMPLETED · task \S+ · 3 artifact chunks$/m);
  });

  it('prints one ProtoJSON StreamResponse per line with -o json', async () => {
    const { code, stdout } = await cli(['send', '--stream', url, 'story', '4', '-o', 'json']);
    expect(code).toBe(0);
    const events = jsonLines(stdout);
    expect(Object.keys(events[0] ?? {})).toEqual(['task']);
    expect(events.filter((e) => 'artifactUpdate' in e)).toHaveLength(4);
    expect(events.at(-1)).toMatchObject({
      statusUpdate: { status: { state: 'TASK_STATE_COMPLETED' } },
    });
  });

  it('stops at INPUT_REQUIRED and exits 1 on REJECTED', async () => {
    const paused = await cli(['send', '--stream', url, 'book']);
    expect(paused.code).toBe(0);
    expect(paused.stdout).toContain('final state INPUT_REQUIRED');
    expect(paused.stdout).toContain('the agent needs input');
    expect((await cli(['send', '--stream', url, 'reject'])).code).toBe(1);
  });
});

describe('a2a get, list, cancel, subscribe', () => {
  it('gets a task, with its history on request', async () => {
    const task = await sendTask('echo', 'get me');
    const text = await cli(['get', url, task.id]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('You said: get me');
    expect(text.stdout).toMatch(/History: \d+ messages? \(show them with --history N\)/);
    const withHistory = await cli(['get', url, task.id, '--history', '5']);
    expect(withHistory.stdout).toContain('user: echo get me');
    const { json } = await cliJson<Task>(['get', url, task.id]);
    expect(json.id).toBe(task.id);
  });

  it('lists tasks as a table and filters by context and status', async () => {
    const a = await sendTask('echo', 'listed');
    const b = await sendTask('--context', a.contextId ?? '', 'book');
    const table = await cli(['list', url, '--context', a.contextId ?? '']);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/^ID\s+STATE\s+UPDATED\s+CONTEXT$/m);
    expect(table.stdout).toContain(a.id);
    expect(table.stdout).toMatch(new RegExp(`^${b.id}\\s+INPUT_REQUIRED`, 'm'));
    for (const status of ['input-required', 'TASK_STATE_INPUT_REQUIRED']) {
      const { json } = await cliJson<ListTasksResponse>([
        'list',
        url,
        '--context',
        a.contextId ?? '',
        '--status',
        status,
      ]);
      expect(json.tasks.map((t) => t.id)).toEqual([b.id]);
    }
  });

  it('pages with --page-size and prints the next page command', async () => {
    await sendTask('echo', 'page 1');
    await sendTask('echo', 'page 2');
    const { stdout } = await cli(['list', url, '--page-size', '1']);
    const token = /--page-token (\S+)/.exec(stdout)?.[1];
    expect(token).toBeDefined();
    const { json } = await cliJson<ListTasksResponse>([
      'list',
      url,
      '--page-size',
      '1',
      '--page-token',
      token ?? '',
    ]);
    expect(json.tasks).toHaveLength(1);
  });

  it('cancels twice (idempotent) but not a finished task', async () => {
    const running = await sendTask('--no-wait', 'slow', '30');
    expect((await cli(['cancel', url, running.id])).code).toBe(0);
    const again = await cliJson<Task>(['cancel', url, running.id]);
    expect(again.json.status.state).toBe('TASK_STATE_CANCELED');
    const done = await sendTask('echo', 'finished');
    const refused = await cli(['cancel', url, done.id]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('TASK_NOT_CANCELABLE');
  });

  it('subscribes to a running task until it completes', async () => {
    const running = await sendTask('--no-wait', 'slow', '1');
    const { code, stdout } = await cli(['subscribe', url, running.id]);
    expect(code).toBe(0);
    expect(stdout.split('\n')[0]).toMatch(new RegExp(`^task ${running.id} · `));
    expect(stdout).toContain('artifact result');
    expect(stdout).toContain(`final state COMPLETED · task ${running.id}`);
    const finished = await cli(['subscribe', url, running.id]);
    expect(finished.code).toBe(1);
    expect(finished.stderr).toContain('UNSUPPORTED_OPERATION');
  });

  it('works over HTTP+JSON when the binding is forced', async () => {
    const { code, stdout } = await cli(['send', url, '--binding', 'HTTP+JSON', 'echo', 'rest']);
    expect(code).toBe(0);
    expect(stdout).toContain('You said: rest');
    const streamed = await cli(['send', '--stream', url, '--binding', 'rest', 'story', '2']);
    expect(streamed.stdout).toContain('final state COMPLETED');
  });
});
