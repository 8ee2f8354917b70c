/**
 * MCP tasks (MCP 2025-11-25 "Tasks", the SDK's experimental tasks client) backed by A2A tasks:
 * a task-augmented tool call answers at once with an MCP task whose id is the A2A task id;
 * tasks/get maps the A2A state (spec §4.1.3), tasks/result blocks until it settles and asks
 * INPUT_REQUIRED questions as elicitations, tasks/cancel is CancelTask (spec §3.1.5), and
 * AUTH_REQUIRED becomes a URL-mode elicitation.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  CallToolResultSchema,
  CreateTaskResultSchema,
  McpError,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A2AClient } from '../../../src/client/index.js';
import { createA2AMcpBridge, serveMcpHttp } from '../../../src/mcp/index.js';
import { serve, type ServeResult } from '../../../src/node/index.js';
import { createAgent } from '../../../src/server/index.js';
import { fileUrlPart, textPart } from '../../../src/core/parts.js';
import { bridgedDemo, mcpClient, textOfResult, type BridgedDemo } from './harness.js';

let env: BridgedDemo;
let client: Client;
const tool = (skill: string) => `a2a_kit_demo_agent_${skill}`;

beforeAll(async () => {
  env = await bridgedDemo();
  client = await mcpClient(env.endpoint.url ?? '', {
    tasks: true,
    elicit: () => ({ action: 'accept', content: { answer: '2026-12-24' } }),
  });
});
afterAll(async () => {
  await client.close();
  await env.close();
});

async function collect(name: string, text: string) {
  const messages = [];
  for await (const m of client.experimental.tasks.callToolStream(
    { name, arguments: { text } },
    CallToolResultSchema,
    { task: { ttl: 60_000 } },
  )) {
    messages.push(m);
  }
  return messages;
}

describe('MCP tasks backed by A2A tasks', () => {
  it('a task-augmented call creates an MCP task with the A2A task id and ends with the result', async () => {
    const messages = await collect(tool('echo'), 'echo tasks');
    const created = messages.find((m) => m.type === 'taskCreated');
    const result = messages.find((m) => m.type === 'result');
    expect(created?.type === 'taskCreated' && created.task.status).toBe('working');
    const taskId = created?.type === 'taskCreated' ? created.task.taskId : '';
    const a2aTask = await env.a2a.getTask({ id: taskId });
    expect(a2aTask.status.state).toBe('TASK_STATE_COMPLETED');
    expect(result?.type === 'result' && textOfResult(result.result)).toContain('You said: tasks');
  });

  it('INPUT_REQUIRED is input_required; tasks/result elicits the answer and the same A2A task completes', async () => {
    const messages = await collect(tool('book'), 'book');
    const statuses = messages.flatMap((m) => (m.type === 'taskStatus' ? [m.task.status] : []));
    expect(statuses).toContain('input_required');
    const result = messages.find((m) => m.type === 'result');
    expect(result?.type === 'result' && result.result.structuredContent).toMatchObject({
      state: 'TASK_STATE_COMPLETED',
    });
    const created = messages.find((m) => m.type === 'taskCreated');
    const taskId = created?.type === 'taskCreated' ? created.task.taskId : '';
    expect(result?.type === 'result' && result.result.structuredContent).toMatchObject({ taskId });
  });

  it('tasks/cancel cancels the A2A task (slow); tasks/get then says cancelled', async () => {
    const { task } = await client.request(
      {
        method: 'tools/call',
        params: { name: tool('slow'), arguments: { text: 'slow 600' }, task: { ttl: 60_000 } },
      },
      CreateTaskResultSchema,
    );
    const taskId = task.taskId;
    expect(task.status).toBe('working');
    expect((await env.a2a.getTask({ id: taskId })).status.state).toBe('TASK_STATE_WORKING');
    const canceled = await client.experimental.tasks.cancelTask(taskId);
    expect(canceled.status).toBe('cancelled');
    expect((await client.experimental.tasks.getTask(taskId)).status).toBe('cancelled');
    expect((await env.a2a.getTask({ id: taskId })).status.state).toBe('TASK_STATE_CANCELED');
  });

  it('tasks/list lists the A2A tasks; tasks/get of an unknown id is an MCP invalid-params error', async () => {
    const listed = await client.experimental.tasks.listTasks();
    expect(listed.tasks.length).toBeGreaterThan(0);
    expect(
      listed.tasks.every((t) =>
        ['working', 'input_required', 'completed', 'failed', 'cancelled'].includes(t.status),
      ),
    ).toBe(true);
    const error = await client.experimental.tasks.getTask('no-such-task').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(-32602);
  });
});

describe('AUTH_REQUIRED as a URL elicitation', () => {
  let agent: ServeResult;
  beforeAll(async () => {
    agent = await serve(
      createAgent({
        card: {
          name: 'Calendar',
          description: 'Needs a sign-in',
          version: '1.0.0',
          capabilities: { streaming: true },
          skills: [
            { id: 'add', name: 'Add event', description: 'Adds an event', tags: ['calendar'] },
          ],
        },
        async *execute({ task, current }) {
          if (current === undefined) {
            yield task.authRequired([
              textPart('Sign in to the calendar first.'),
              fileUrlPart('https://login.example.com/authorize?task=1'),
            ]);
            return;
          }
          yield task.artifact('Event added.');
          yield task.completed();
        },
      }),
      { port: 0, logger: null },
    );
  });
  afterAll(() => agent.close());

  it('sends the user to the sign-in URL, then continues the same task', async () => {
    const bridge = await createA2AMcpBridge({ client: await A2AClient.connect(agent.url) });
    const endpoint = await serveMcpHttp(bridge, { port: 0 });
    const asked: { mode?: string; url?: string }[] = [];
    const c = await mcpClient(endpoint.url ?? '', {
      urlMode: true,
      elicit: (request) => {
        asked.push(request as { mode?: string; url?: string });
        return { action: 'accept' };
      },
    });
    try {
      const result = await c.callTool({ name: 'calendar_add', arguments: { text: 'lunch' } });
      expect(asked).toEqual([
        expect.objectContaining({ mode: 'url', url: 'https://login.example.com/authorize?task=1' }),
      ]);
      expect(result.structuredContent).toMatchObject({ state: 'TASK_STATE_COMPLETED' });
      expect(textOfResult(result)).toContain('Event added.');
    } finally {
      await c.close();
      await endpoint.close();
    }
  });
});
