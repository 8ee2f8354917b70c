/**
 * An A2A agent (the demo agent, src/demo) as an MCP server over Streamable HTTP, driven by the
 * real MCP SDK client: tools from the card's skills (spec §4.4.5 AgentSkill), echo, `book`
 * through INPUT_REQUIRED (spec §4.1.3) as an elicitation, progress from status updates, `slow`
 * canceled (spec §3.1.5), and a large artifact paged.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bridgedDemo, mcpClient, textOfResult, type BridgedDemo } from './harness.js';

let env: BridgedDemo;
let client: Client;
const tool = (skill: string) => `a2a_kit_demo_agent_${skill}`;

beforeAll(async () => {
  env = await bridgedDemo();
  client = await mcpClient(env.endpoint.url ?? '');
});
afterAll(async () => {
  await client.close();
  await env.close();
});

describe('A2A agent as MCP server (Streamable HTTP)', () => {
  it('lists one tool per skill (stable names, schema from input modes) and the generic tools', async () => {
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    for (const skill of ['echo', 'greet', 'book', 'story', 'slow', 'reject', 'fail', 'auth']) {
      expect(names).toContain(tool(skill));
    }
    for (const generic of [
      'send_message',
      'get_task',
      'cancel_task',
      'list_tasks',
      'view_text_artifact',
      'view_data_artifact',
    ]) {
      expect(names).toContain(generic);
    }
    const book = tools.find((t) => t.name === tool('book'));
    expect(book?.description).toContain('Which date?');
    expect(Object.keys(book?.inputSchema.properties ?? {})).toEqual([
      'text',
      'data',
      'taskId',
      'contextId',
    ]);
    const echo = tools.find((t) => t.name === tool('echo'));
    // echo declares no input modes: the card's defaults (text and JSON) make both optional.
    expect(Object.keys(echo?.inputSchema.properties ?? {})).toContain('text');
    expect(echo?.inputSchema.required).toBeUndefined();
    expect(echo?.execution?.taskSupport).toBe('optional');
  });

  it('calls echo: the artifact comes back as text, the task as structured content', async () => {
    const result = await client.callTool({ name: tool('echo'), arguments: { text: 'echo hello' } });
    expect(textOfResult(result)).toContain('You said: hello');
    expect(result.structuredContent).toMatchObject({ state: 'TASK_STATE_COMPLETED' });
    expect(result.isError).toBeUndefined();
  });

  it('a message reply (no task) is the tool result', async () => {
    const result = await client.callTool({ name: tool('greet'), arguments: { text: 'hi' } });
    expect(textOfResult(result)).toContain('Hello! I am the a2a-kit demo agent');
  });

  it('REJECTED and FAILED tasks are tool errors (isError)', async () => {
    const rejected = await client.callTool({ name: tool('reject'), arguments: { text: 'reject' } });
    expect(rejected.isError).toBe(true);
    expect(textOfResult(rejected)).toContain('TASK_STATE_REJECTED');
    const failed = await client.callTool({ name: tool('fail'), arguments: { text: 'fail' } });
    expect(failed.isError).toBe(true);
    expect(textOfResult(failed)).toContain('TASK_STATE_FAILED');
  });

  it('without elicitation, book pauses and says how to continue; send_message continues the same task', async () => {
    const paused = await client.callTool({ name: tool('book'), arguments: { text: 'book' } });
    const taskId = (paused.structuredContent as { taskId: string }).taskId;
    expect(paused.structuredContent).toMatchObject({ state: 'TASK_STATE_INPUT_REQUIRED' });
    expect(textOfResult(paused)).toContain('Which date?');
    expect(textOfResult(paused)).toContain(`send_message with {"taskId": "${taskId}"`);
    const done = await client.callTool({
      name: 'send_message',
      arguments: { taskId, text: '2026-12-24' },
    });
    expect(done.structuredContent).toMatchObject({ taskId, state: 'TASK_STATE_COMPLETED' });
    expect(textOfResult(done)).toContain('2026-12-24');
  });

  it('with elicitation, book asks the question and the answer continues the same A2A task', async () => {
    const asked: string[] = [];
    const eliciting = await mcpClient(env.endpoint.url ?? '', {
      elicit: (request) => {
        asked.push(request.message);
        return { action: 'accept', content: { answer: '2026-12-24' } };
      },
    });
    try {
      const result = await eliciting.callTool({ name: tool('book'), arguments: { text: 'book' } });
      expect(asked).toHaveLength(1);
      expect(asked[0]).toContain('Which date?');
      const { taskId } = result.structuredContent as { taskId: string };
      expect(result.structuredContent).toMatchObject({ state: 'TASK_STATE_COMPLETED' });
      const task = await env.a2a.getTask({ id: taskId });
      expect(task.history?.filter((m) => m.role === 'ROLE_USER')).toHaveLength(2);
    } finally {
      await eliciting.close();
    }
  });

  it('a declined elicitation leaves the task paused, with how to continue', async () => {
    const declining = await mcpClient(env.endpoint.url ?? '', {
      elicit: () => ({ action: 'decline' }),
    });
    try {
      const result = await declining.callTool({ name: tool('book'), arguments: { text: 'book' } });
      expect(result.structuredContent).toMatchObject({ state: 'TASK_STATE_INPUT_REQUIRED' });
      expect(textOfResult(result)).toContain('send_message');
    } finally {
      await declining.close();
    }
  });

  it('status updates of a streamed task become MCP progress notifications', async () => {
    const seen: string[] = [];
    const result = await client.callTool(
      { name: tool('slow'), arguments: { text: 'slow 2' } },
      undefined,
      {
        onprogress: (p) => seen.push(p.message ?? ''),
      },
    );
    expect(result.structuredContent).toMatchObject({ state: 'TASK_STATE_COMPLETED' });
    expect(seen).toContain('Working... 1/2 s');
    expect(seen).toContain('Working... 2/2 s');
  });

  it('canceling the MCP request cancels the A2A task (slow)', async () => {
    const stop = new AbortController();
    const started = new Promise<void>((resolve) => {
      void client
        .callTool({ name: tool('slow'), arguments: { text: 'slow 600' } }, undefined, {
          signal: stop.signal,
          onprogress: () => resolve(),
        })
        .catch(() => undefined);
    });
    await started;
    const before = await env.a2a.listTasks({ status: 'TASK_STATE_WORKING' });
    const running = before.tasks.map((t) => t.id);
    expect(running.length).toBeGreaterThan(0);
    stop.abort();
    await expect
      .poll(
        async () =>
          (await env.a2a.listTasks({ status: 'TASK_STATE_CANCELED' })).tasks.map((t) => t.id),
        { timeout: 20_000 },
      )
      .toEqual(expect.arrayContaining([running[0]]));
  });

  it('a large artifact is cut inline and paged with view_text_artifact', async () => {
    const result = await client.callTool({ name: tool('story'), arguments: { text: 'story 200' } });
    const { taskId, artifacts } = result.structuredContent as {
      taskId: string;
      artifacts: { artifactId: string }[];
    };
    const artifactId = artifacts[0]?.artifactId ?? '';
    expect(textOfResult(result)).toContain(
      `read the rest with view_text_artifact {"taskId": "${taskId}"`,
    );
    expect(textOfResult(result).length).toBeLessThan(6000);
    const task = await env.a2a.getTask({ id: taskId });
    const whole = task.artifacts?.[0]?.parts.map((p) => p.text ?? '').join('\n') ?? '';
    let offset: number | undefined = 0;
    const pages: string[] = [];
    while (offset !== undefined) {
      const page = await client.callTool({
        name: 'view_text_artifact',
        arguments: { taskId, artifactId, offset, limit: 20 },
      });
      const content = page.content as { text: string }[];
      pages.push(content[0]?.text ?? '');
      offset = (page.structuredContent as { nextOffset?: number }).nextOffset;
    }
    expect(pages.length).toBeGreaterThan(1);
    expect(pages.join('\n').replace(/\n/g, '')).toBe(whole.replace(/\n/g, ''));
  });

  it('get_task, list_tasks and errors of the generic tools', async () => {
    const echoed = await client.callTool({
      name: tool('echo'),
      arguments: { text: 'echo list me' },
    });
    const { taskId } = echoed.structuredContent as { taskId: string };
    const got = await client.callTool({ name: 'get_task', arguments: { taskId } });
    expect(textOfResult(got)).toContain('You said: list me');
    const listed = await client.callTool({ name: 'list_tasks', arguments: { pageSize: 100 } });
    expect(textOfResult(listed)).toContain(taskId);
    const missing = await client.callTool({
      name: 'get_task',
      arguments: { taskId: 'no-such-task' },
    });
    expect(missing.isError).toBe(true);
    expect(textOfResult(missing)).toContain('TASK_NOT_FOUND');
    const empty = await client.callTool({ name: 'send_message', arguments: {} });
    expect(empty.isError).toBe(true);
    await expect(client.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toThrow(
      /Unknown tool/,
    );
  });
});
