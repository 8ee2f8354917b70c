/**
 * The trajectory extension (docs/extensions/trajectory.md) and the audit extension (docs/trust.md)
 * over every binding, as extensions must behave (spec §4.6): declared in the card (requirement
 * 233, test/conformance/requirements.ts), activated with `A2A-Extensions` and echoed (235). The
 * steps `task.step()` records reach a client that activated the trajectory extension on every
 * read path (blocking SendMessage, the stream, GetTask, ListTasks) and are stripped from all of
 * them, and from push notifications, for a client that did not. GetTask with the audit extension
 * returns a hash chain that checks out whatever binding carried it.
 */
import { expect } from 'vitest';
import { TRAJECTORY_EXTENSION, trajectoryExtension } from '../../src/core/trajectory.js';
import { A2AServer } from '../../src/server/a2a-server.js';
import { createAgent } from '../../src/server/agent.js';
import { AUDIT_EXTENSION } from '../../src/server/audit.js';
import {
  checkChain,
  exportLines,
  type ChainHead,
  type ChainLink,
} from '../../src/security/audit-chain.js';
import { createPushNotifier } from '../../src/push/index.js';
import { serve } from '../../src/node/serve.js';
import { MemoryTaskStore } from '../../src/stores/memory/task-store.js';
import { serverSuite, verifies, verifiesServer } from '../helpers/bindings.js';
import { ok } from '../helpers/expect.js';
import { sendParams } from '../helpers/requests.js';
import { startServer } from '../helpers/server.js';
import { taskOf } from '../helpers/shapes.js';
import { startWebhook } from '../integration/push-helpers.js';

const agent = createAgent({
  card: {
    name: 'Tools',
    description: 'Uses tools and says so',
    version: '1.0.0',
    capabilities: { streaming: true, extensions: [trajectoryExtension] },
    skills: [{ id: 'lookup', name: 'Lookup', description: 'Looks things up', tags: ['t'] }],
  },
  async *execute({ task }) {
    yield task.working();
    task.step({
      tool: 'search',
      input: { q: 'a2a' },
      output: ['spec'],
      startedAt: 0,
      durationMs: 12,
    });
    yield task.artifact('found it');
    task.step({ tool: 'summarize', input: 'spec', output: 'short', durationMs: 3 });
    yield task.completed();
  },
});

const ACTIVATE = { headers: { 'a2a-extensions': TRAJECTORY_EXTENSION } };

/** Every trajectory step anywhere in a JSON value. */
function steps(value: unknown): unknown[] {
  const found: unknown[] = [];
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v !== null && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        if (k === TRAJECTORY_EXTENSION && Array.isArray(x)) found.push(...(x as unknown[]));
        else walk(x);
      }
    }
  };
  walk(value);
  return found;
}

const SEARCH = {
  kind: 'trajectory',
  tool_name: 'search',
  tool_input: { q: 'a2a' },
  tool_output: ['spec'],
  started_at: '1970-01-01T00:00:00.000Z',
  duration_ms: 12,
};

serverSuite(
  'the trajectory extension: steps for clients that activate it, stripped for the others',
  () => startServer(agent, { audit: true }),
  (server) => {
    verifiesServer(
      [233],
      'the card declares the trajectory and audit extensions, not required',
      async () => {
        const card = (await (await fetch(`${server.url}/.well-known/agent-card.json`)).json()) as {
          capabilities: { extensions?: { uri: string; required?: boolean }[] };
        };
        const uris = card.capabilities.extensions?.map((e) => [e.uri, e.required]);
        expect(uris).toContainEqual([TRAJECTORY_EXTENSION, false]);
        expect(uris).toContainEqual([AUDIT_EXTENSION, false]);
      },
    );

    verifies([235], 'activated: the steps are in part metadata on every read path', async (b) => {
      const reply = await b.call('SendMessage', sendParams('look up'), ACTIVATE);
      expect(reply.headers.get('a2a-extensions') ?? '').toContain(TRAJECTORY_EXTENSION);
      const task = taskOf(ok(reply));
      expect(task.artifacts?.[0]?.parts[0]?.metadata?.[TRAJECTORY_EXTENSION]).toEqual([SEARCH]);
      // A status without content carries the steps recorded since in a message naming the tools.
      expect(task.status.message?.parts[0]?.text).toBe('Steps: summarize');
      expect(steps(task.status.message)).toEqual([
        {
          kind: 'trajectory',
          tool_name: 'summarize',
          tool_input: 'spec',
          tool_output: 'short',
          duration_ms: 3,
        },
      ]);
      const got = ok(await b.call('GetTask', { id: task.id, historyLength: 0 }, ACTIVATE));
      expect(steps(got)).toHaveLength(2);
      const listed = ok(
        await b.call(
          'ListTasks',
          { contextId: task.contextId, includeArtifacts: true, historyLength: 0 },
          ACTIVATE,
        ),
      );
      expect(steps(listed)).toHaveLength(2);
      const streamed = await b.stream('SendStreamingMessage', sendParams('look up'), ACTIVATE);
      expect(streamed.ok && steps(streamed.events.map((e) => e.event))).toHaveLength(2);
    });

    verifies([235], 'not activated: no read path shows a step', async (b) => {
      const task = taskOf(ok(await b.call('SendMessage', sendParams('look up'))));
      expect(steps(task)).toEqual([]);
      expect(task.artifacts?.[0]?.parts[0]).toEqual({ text: 'found it' });
      expect(task.status.message?.parts[0]?.text).toBe('Steps: summarize');
      expect(steps(ok(await b.call('GetTask', { id: task.id })))).toEqual([]);
      const listed = ok(
        await b.call('ListTasks', { contextId: task.contextId, includeArtifacts: true }),
      );
      expect(steps(listed)).toEqual([]);
      const streamed = await b.stream('SendStreamingMessage', sendParams('look up'));
      expect(streamed.ok && streamed.events.length).toBeGreaterThan(2);
      expect(streamed.ok && steps(streamed.events.map((e) => e.event))).toEqual([]);
    });

    verifies(
      [235],
      'GetTask with the audit extension returns a hash chain that checks out',
      async (b) => {
        const task = taskOf(ok(await b.call('SendMessage', sendParams('look up'))));
        const reply = await b.call(
          'GetTask',
          { id: task.id },
          { headers: { 'a2a-extensions': AUDIT_EXTENSION } },
        );
        expect(reply.headers.get('a2a-extensions') ?? '').toContain(AUDIT_EXTENSION);
        const got = ok(reply) as {
          metadata?: Record<string, { links: ChainLink[]; head: ChainHead }>;
        };
        const trail = got.metadata?.[AUDIT_EXTENSION];
        expect(trail?.links.map((l) => l.seq)).toEqual([1, 2, 3, 4]);
        const check = checkChain(exportLines(task.id, trail!.links, trail!.head));
        expect(check.problem).toBeUndefined();
        // The chain is the audit trail: it keeps the steps even when the task view strips them.
        expect(steps(trail)).toHaveLength(2);
        expect(steps(got.metadata ? { ...got, metadata: undefined } : got)).toEqual([]);
        // Without the extension, GetTask has no chain.
        const plain = ok(await b.call('GetTask', { id: task.id })) as { metadata?: object };
        expect(plain.metadata?.[AUDIT_EXTENSION as keyof object]).toBeUndefined();
      },
    );
  },
);

serverSuite(
  'push notifications never carry trajectory steps',
  async () => {
    const store = new MemoryTaskStore();
    const notifier = createPushNotifier({ store, allowHosts: ['127.0.0.1'], logger: null });
    const server = new A2AServer({
      agent,
      store,
      ownership: false,
      logger: null,
      push: { notifier },
    });
    const running = await serve(server, { logger: null, grpc: true });
    return {
      url: running.url,
      grpcUrl: running.grpcUrl ?? '',
      internalErrors: [],
      close: async () => {
        await running.close();
        await server.close();
      },
    };
  },
  () => {
    verifies(
      [235],
      'a webhook (which activates nothing) gets the events without steps',
      async (b) => {
        const hook = await startWebhook();
        try {
          const params = sendParams('look up', {
            configuration: { taskPushNotificationConfig: { url: `${hook.url}/hook`, token: 't' } },
          });
          ok(await b.call('SendMessage', params, ACTIVATE));
          const deadline = Date.now() + 5_000;
          while (
            !hook.calls.some((c) => c.body.includes('TASK_STATE_COMPLETED')) &&
            Date.now() < deadline
          ) {
            await new Promise((r) => setTimeout(r, 20));
          }
          const bodies = hook.calls.map((c) => JSON.parse(c.body) as unknown);
          expect(JSON.stringify(bodies)).toContain('found it');
          expect(JSON.stringify(bodies)).toContain('TASK_STATE_COMPLETED');
          expect(steps(bodies)).toEqual([]);
        } finally {
          await hook.close();
        }
      },
      { only: ['JSONRPC'] },
    );
  },
);
