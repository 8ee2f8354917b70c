/** `a2a serve --exec`: a real shell command per message, over a real A2AServer. */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { textOf, userMessage } from '../../core/parts.js';
import type { StreamResponse, Task } from '../../core/schemas/index.js';
import { A2AServer } from '../../server/a2a-server.js';
import { execAgent } from './exec-agent.js';

const card = { name: 'Exec', description: 'runs a command', version: '1.0.0', skills: [] };
/** The artifact's text as written: its appended chunks' parts joined without separators. */
const written = (task: Task) =>
  (task.artifacts?.[0]?.parts ?? []).map((p) => p.text ?? '').join('');
const serverFor = (command: string, chunk?: string) =>
  new A2AServer({ agent: execAgent({ card, command, chunk }), logger: null });

async function send(server: A2AServer, text: string): Promise<Task> {
  const reply = await server.sendMessage({ message: userMessage(text) }, {});
  if (!('task' in reply)) throw new Error('expected a task');
  return reply.task;
}

describe('execAgent', () => {
  it('gives the message text to stdin and returns stdout as the artifact (COMPLETED on exit 0)', async () => {
    const task = await send(serverFor('tr a-z A-Z'), 'hello there');
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(task.artifacts).toHaveLength(1);
    expect(written(task)).toBe('HELLO THERE');
  });

  it('streams stdout in chunks as the command writes them, the last one marked lastChunk', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'a2a-exec-'));
    const gate = join(dir, 'go');
    // The second line is written only after the test has seen the first chunk: no timing.
    const server = serverFor(`echo one; while [ ! -f '${gate}' ]; do sleep 0.02; done; echo two`);
    const events: StreamResponse[] = [];
    const stream = await server.sendStreamingMessage({ message: userMessage('x') }, {});
    for await (const { event } of stream) {
      events.push(event);
      if ('artifactUpdate' in event && textOf(event.artifactUpdate.artifact) === 'one\n') {
        writeFileSync(gate, '');
      }
    }
    const chunks = events.flatMap((e) => ('artifactUpdate' in e ? [e.artifactUpdate] : []));
    expect(chunks.map((c) => textOf(c.artifact))).toEqual(['one\n', 'two\n', '']);
    expect(chunks.map((c) => c.append === true)).toEqual([false, true, true]);
    expect(chunks.map((c) => c.lastChunk === true)).toEqual([false, false, true]);
    expect(new Set(chunks.map((c) => c.artifact.artifactId)).size).toBe(1);
    const last = events.at(-1);
    expect(last && 'statusUpdate' in last && last.statusUpdate.status.state).toBe(
      'TASK_STATE_COMPLETED',
    );
  });

  it('splits at the --chunk delimiter, or sends stdout whole with an empty one', async () => {
    const spaced = await send(serverFor("printf 'a b c'", ' '), 'x');
    expect(written(spaced)).toBe('a b c');
    expect(spaced.artifacts?.[0]?.parts.map((p) => p.text)).toEqual(['a ', 'b ', 'c']);
    const stream = await serverFor("printf 'a\\nb\\n'", '').sendStreamingMessage(
      { message: userMessage('x') },
      {},
    );
    const chunks: string[] = [];
    for await (const { event } of stream) {
      if ('artifactUpdate' in event) chunks.push(textOf(event.artifactUpdate.artifact));
    }
    expect(chunks).toEqual(['a\nb\n']);
  });

  it('fails the task with the end of stderr on a non-zero exit', async () => {
    const task = await send(serverFor('echo partial; echo "no such file" >&2; exit 3'), 'x');
    expect(task.status.state).toBe('TASK_STATE_FAILED');
    expect(textOf(task.status.message)).toBe('The command exited with code 3: no such file');
    expect(written(task)).toBe('partial\n');
  });

  it('stops the command when the task is canceled (spec §3.1.5)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'a2a-exec-'));
    const pidFile = join(dir, 'pid');
    const server = serverFor(`echo $$ > '${pidFile}'; exec sleep 30`);
    const reply = await server.sendMessage(
      { message: userMessage('x'), configuration: { returnImmediately: true } },
      {},
    );
    if (!('task' in reply)) throw new Error('expected a task');
    for (let i = 0; i < 200 && !existsSync(pidFile); i++)
      await new Promise((r) => setTimeout(r, 20));
    const pid = Number(readFileSync(pidFile, 'utf8'));
    const canceled = await server.cancelTask({ id: reply.task.id }, {});
    expect(canceled.status.state).toBe('TASK_STATE_CANCELED');
    const alive = () => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    for (let i = 0; i < 150 && alive(); i++) await new Promise((r) => setTimeout(r, 20));
    expect(alive()).toBe(false);
  });
});
