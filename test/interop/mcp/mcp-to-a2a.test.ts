/**
 * An MCP server (test/fixtures/mcp/tool-server.mjs, written with the official SDK) as an A2A
 * agent: over stdio (a real child process) and Streamable HTTP, served with serve() and driven by
 * our A2A client and by @a2a-js/sdk 1.3's client. Tools are skills (spec §4.4.5), a message is a
 * tool call, results are artifacts, isError fails the task, progress streams as WORKING status
 * updates (spec §3.1.2) and CancelTask (spec §3.1.5) cancels the tool call.
 */
import { randomUUID } from 'node:crypto';
import { Role, TaskState } from '@a2a-js/sdk';
import { ClientFactory, ClientFactoryOptions, JsonRpcTransportFactory } from '@a2a-js/sdk/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A2AClient } from '../../../src/client/index.js';
import { dataOf, dataPart, textOf, userMessage } from '../../../src/core/parts.js';
import type { Task } from '../../../src/core/schemas/index.js';
import { connectMcpServer, mcpAgent, serveMcpHttp, type McpAgent } from '../../../src/mcp/index.js';
import { serve, type ServeResult } from '../../../src/node/index.js';
// @ts-expect-error -- a plain .mjs fixture without types
import { createToolServer } from '../../fixtures/mcp/tool-server.mjs';

const FIXTURE = new URL('../../fixtures/mcp/tool-server.mjs', import.meta.url).pathname;

/** The fixture served over Streamable HTTP (same bridge code path as a2a-kit's MCP endpoint). */
async function fixtureOverHttp() {
  return serveMcpHttp(
    { server: () => (createToolServer() as { server: never }).server },
    { port: 0 },
  );
}

const asTask = (reply: unknown): Task => {
  if (typeof reply === 'object' && reply !== null && 'task' in reply)
    return (reply as { task: Task }).task;
  throw new Error(`expected a task, got ${JSON.stringify(reply)}`);
};

describe.each([
  {
    transport: 'stdio',
    start: async () => ({ target: `${process.execPath} ${FIXTURE}`, close: async () => undefined }),
  },
  {
    transport: 'Streamable HTTP',
    start: async () => {
      const endpoint = await fixtureOverHttp();
      return { target: endpoint.url ?? '', close: () => endpoint.close() };
    },
  },
])('MCP server over $transport as an A2A agent', ({ start }) => {
  let upstream: { target: string; close(): Promise<void> };
  let agent: McpAgent;
  let served: ServeResult;
  let a2a: A2AClient;
  beforeAll(async () => {
    upstream = await start();
    agent = await mcpAgent({
      client: await connectMcpServer(upstream.target, { stderr: 'ignore' }),
    });
    served = await serve(agent, { port: 0, logger: null });
    a2a = await A2AClient.connect(served.url);
  });
  afterAll(async () => {
    await served.close();
    await agent.close();
    await upstream.close();
  });

  it('its tools are the skills of the generated card', () => {
    expect(a2a.card.name).toBe('Fixture tools');
    expect(a2a.card.version).toBe('2.0.0');
    expect(a2a.card.description).toContain('Test tools');
    expect(a2a.card.skills.map((s) => s.id)).toEqual([
      'add',
      'shout',
      'slow',
      'broken',
      'explode',
      'trace',
    ]);
    const add = a2a.card.skills[0];
    expect(add?.name).toBe('Add');
    expect(add?.description).toContain('"a":{"type":"number"}');
    expect(add?.tags).toContain('read-only');
  });

  it('a data part {tool, arguments} is a tool call; text and structured content become artifacts', async () => {
    const task = asTask(
      await a2a.sendMessage({
        message: userMessage([dataPart({ tool: 'add', arguments: { a: 2, b: 3 } })]),
      }),
    );
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(textOf(task.artifacts?.[0])).toBe('2 + 3 = 5');
    expect(dataOf(task.artifacts?.[0])).toEqual({ sum: 5 });
  });

  it('text "tool rest" goes to the tool\'s one string argument; "tool {json}" is the arguments', async () => {
    const shout = asTask(await a2a.sendMessage({ message: userMessage('shout hello there') }));
    expect(textOf(shout.artifacts?.[0])).toBe('HELLO THERE');
    const add = asTask(await a2a.sendMessage({ message: userMessage('add {"a": 1, "b": 41}') }));
    expect(dataOf(add.artifacts?.[0])).toEqual({ sum: 42 });
  });

  it('an unroutable message or unknown tool is REJECTED with what to send', async () => {
    const task = asTask(await a2a.sendMessage({ message: userMessage('what can you do?') }));
    expect(task.status.state).toBe('TASK_STATE_REJECTED');
    expect(textOf(task.status.message)).toContain('add, shout, slow');
    const unknown = asTask(
      await a2a.sendMessage({ message: userMessage([dataPart({ tool: 'nope' })]) }),
    );
    expect(unknown.status.state).toBe('TASK_STATE_REJECTED');
  });

  it('isError results, thrown tools and invalid arguments FAIL the task with the reason', async () => {
    const broken = asTask(await a2a.sendMessage({ message: userMessage('broken') }));
    expect(broken.status.state).toBe('TASK_STATE_FAILED');
    expect(textOf(broken.status.message)).toBe('broken on purpose');
    const exploded = asTask(await a2a.sendMessage({ message: userMessage('explode') }));
    expect(exploded.status.state).toBe('TASK_STATE_FAILED');
    expect(textOf(exploded.status.message)).toContain('exploded on purpose');
    const invalid = asTask(await a2a.sendMessage({ message: userMessage('add {"a": "x"}') }));
    expect(invalid.status.state).toBe('TASK_STATE_FAILED');
  });

  it('MCP progress notifications stream as WORKING status updates', async () => {
    const said: string[] = [];
    let final = '';
    for await (const event of a2a.sendStreamingMessage({
      message: userMessage([dataPart({ tool: 'slow', arguments: { steps: 5, tickMs: 50 } })]),
    })) {
      if ('statusUpdate' in event) {
        said.push(textOf(event.statusUpdate.status.message));
        final = event.statusUpdate.status.state;
      }
    }
    // Every notification, in order, but the last one may be missing, and only it: the tool
    // (an SDK McpServer) awaits each notification before it returns, so the wire order is
    // step 1..5 then the result, 50 ms apart except step 5 and the result. The SDK client
    // (Protocol in @modelcontextprotocol/sdk 1.32) runs notification handlers in a microtask
    // but the response handler at once, and the response deletes the request's progress
    // handler: when step 5 and the result arrive in one read, step 5 finds no handler and is
    // dropped ("Received a progress notification for an unknown token", on the client's
    // onerror) before our code sees it. Nothing on our side can order it (docs/mcp.md).
    const steps = ['step 1 (1/5)', 'step 2 (2/5)', 'step 3 (3/5)', 'step 4 (4/5)'];
    const whole = ['Calling the MCP tool slow.', ...steps, 'step 5 (5/5)', ''];
    const lastDropped = whole.filter((s) => s !== 'step 5 (5/5)');
    expect([whole, lastDropped]).toContainEqual(said);
    expect(final).toBe('TASK_STATE_COMPLETED');
  });

  it('CancelTask cancels the running tool call', async () => {
    const started = asTask(
      await a2a.sendMessage({
        message: userMessage([
          dataPart({ tool: 'slow', arguments: { steps: 10_000, tickMs: 50 } }),
        ]),
        configuration: { returnImmediately: true },
      }),
    );
    await expect
      .poll(async () => textOf((await a2a.getTask({ id: started.id })).status.message), {
        timeout: 20_000,
      })
      .toMatch(/step/);
    const canceled = await a2a.cancelTask({ id: started.id });
    expect(canceled.status.state).toBe('TASK_STATE_CANCELED');
    // The tool stopped: no new progress lands after the cancel.
    const after = await a2a.getTask({ id: started.id });
    expect(after.status.state).toBe('TASK_STATE_CANCELED');
  });

  it('@a2a-js/sdk 1.3 client calls a tool through the bridge', async () => {
    const factory = new ClientFactory(
      ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
        transports: [new JsonRpcTransportFactory()],
      }),
    );
    const theirs = await factory.createFromUrl(served.url);
    const reply = await theirs.sendMessage({
      tenant: '',
      message: {
        messageId: randomUUID(),
        role: Role.ROLE_USER,
        parts: [
          {
            content: { $case: 'text', value: 'shout from their client' },
            metadata: undefined,
            filename: '',
            mediaType: '',
          },
        ],
        contextId: '',
        taskId: '',
        metadata: undefined,
        extensions: [],
        referenceTaskIds: [],
      },
      configuration: {
        acceptedOutputModes: [],
        taskPushNotificationConfig: undefined,
        returnImmediately: false,
      },
      metadata: undefined,
    });
    const task = reply as {
      status?: { state: number };
      artifacts: { parts: { content?: { $case: string; value: unknown } }[] }[];
    };
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(task.artifacts[0]?.parts[0]?.content).toEqual({
      $case: 'text',
      value: 'FROM THEIR CLIENT',
    });
  });
});
