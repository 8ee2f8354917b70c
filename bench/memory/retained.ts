/**
 * Heap and RSS per retained completed echo task, in process (no HTTP): run with --expose-gc,
 * `--sdk=a2a-kit|a2a-js`. Creates tasks through each SDK's own SendMessage handler, collects
 * garbage, and divides the growth by the number of tasks.
 */
import { SendMessageRequest, TaskState } from '@a2a-js/sdk';
import { DefaultRequestHandler, InMemoryTaskStore, ServerCallContext } from '@a2a-js/sdk/server';
import { A2AServer, MemoryTaskStore } from '../../src/server/index.js';
import { childArg, processStats, serveRpc } from '../ipc.js';
import { A2ajsEcho, a2ajsCard } from '../servers/a2ajs-agent.js';
import { kitEcho } from '../servers/kit-agent.js';
import { echoParams } from '../servers/seed.js';
import { restBody } from '../load/requests.js';

/** What one measurement found. */
export interface RetainedResult {
  tasks: number;
  heapPerTask: number;
  rssPerTask: number;
}

type Create = (n: number) => Promise<void>;

function kitCreator(count: number): Create {
  const server = new A2AServer({
    agent: kitEcho,
    store: new MemoryTaskStore({ maxTasks: count * 2 }),
    logger: null,
  });
  return async (n) => {
    const reply = await server.sendMessage(echoParams(n), {});
    if (!('task' in reply) || reply.task.status.state !== 'TASK_STATE_COMPLETED') {
      throw new Error('a2a-kit echo did not complete');
    }
  };
}

function a2ajsCreator(): Create {
  const handler = new DefaultRequestHandler(a2ajsCard, new InMemoryTaskStore(), new A2ajsEcho());
  return async (n) => {
    const id = `retained-${n}-${Math.random().toString(36).slice(2)}`;
    const request = SendMessageRequest.fromJSON(JSON.parse(restBody(id, 'hello')));
    const context = new ServerCallContext({ requestedVersion: '1.0' });
    const reply = await handler.sendMessage(request, context);
    if (!('status' in reply) || reply.status?.state !== TaskState.TASK_STATE_COMPLETED)
      throw new Error('a2a-js echo did not complete');
  };
}

/** Creates `count` tasks after a warm-up and measures the growth. */
async function measure(count: number): Promise<RetainedResult> {
  const sdk = childArg('sdk') ?? 'a2a-kit';
  const create = sdk === 'a2a-js' ? a2ajsCreator() : kitCreator(count + 1_000);
  const batch = async (from: number, to: number) => {
    for (let i = from; i < to; i += 100) {
      await Promise.all(Array.from({ length: Math.min(100, to - i) }, (_, k) => create(i + k)));
    }
  };
  const warmup = Math.min(1_000, count);
  await batch(0, warmup); // warm-up: JIT, lazily built structures
  const before = processStats(true);
  await batch(warmup, warmup + count);
  const after = processStats(true);
  return {
    tasks: count,
    heapPerTask: (after.heapUsed - before.heapUsed) / count,
    rssPerTask: (after.rss - before.rss) / count,
  };
}

serveRpc({
  measure: (arg: { count: number }) => measure(arg.count),
});
