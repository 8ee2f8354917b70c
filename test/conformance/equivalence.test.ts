/**
 * One scenario over JSON-RPC, HTTP+JSON and gRPC against one server, results compared object by
 * object (spec §5.1: every binding offers the same operations and returns equivalent results and
 * errors; requirement 48 of test/conformance/requirements.ts, 185-187). Generated ids and timestamps are normalised first; SSE ids are
 * framing, so streams are compared by their payloads.
 */
import { expect } from 'vitest';
import { scriptedAgent } from '../helpers/agents.js';
import { serverSuite, V1_BINDINGS, verifiesServer } from '../helpers/bindings.js';
import type { BindingDriver, LiveStream, OpenResult } from '../helpers/driver.js';
import { errorOf, ok } from '../helpers/expect.js';
import { payloads, sendParams, sleep, uid } from '../helpers/requests.js';
import { startServer } from '../helpers/server.js';
import { WireTask, shape, taskOf } from '../helpers/shapes.js';
import type { BindingName, WireError } from '../helpers/wire.js';

const { agent } = scriptedAgent();
/** The gate the canceled task waits on: the same text on every binding, never opened. */
const NEVER_OPENED = uid('gate');

/** Keys whose string values are generated per run. */
const ID_KEYS = new Set(['id', 'taskId', 'contextId', 'messageId', 'artifactId']);

function live(res: OpenResult): LiveStream {
  if (!res.ok) return expect.fail(`stream refused: ${res.error.message}`);
  return res.stream;
}

/** JSON-RPC's name of a generic error as the google.rpc status the other bindings use. */
const AS_STATUS: Readonly<Record<string, string>> = {
  INVALID_PARAMS: 'INVALID_ARGUMENT',
  INTERNAL: 'INTERNAL',
};

/** What the comparison looks at in an error: its code (A2A reason or status), message, details. */
function errorView(error: WireError) {
  const code = error.binding === 'JSONRPC' ? (AS_STATUS[error.code] ?? error.code) : error.code;
  return { code, message: error.message, details: error.details };
}

/** Every step of the scenario on one binding, each tenant-scoped so listings compare. */
async function scenario(b: BindingDriver) {
  const tenant = uid('eq');
  const send = async (text: string, extra: Record<string, unknown> = {}) =>
    ok(await b.call('SendMessage', { ...sendParams(text), ...extra, tenant }));

  const blocking = taskOf(await send('chunks 2'));
  const reply = await send('reply equivalent');
  const streamed = await b.stream('SendStreamingMessage', { ...sendParams('chunks 3'), tenant });
  if (!streamed.ok) return expect.fail(streamed.error.message);
  const got = shape(WireTask, ok(await b.call('GetTask', { id: blocking.id, tenant })));

  const configuration = { returnImmediately: true };
  const waiting = taskOf(await send(`wait ${NEVER_OPENED}`, { configuration }));
  await working(b, waiting.id, tenant);
  const canceled = ok(await b.call('CancelTask', { id: waiting.id, tenant }));

  const asked = taskOf(await send('ask'));
  const subscription = live(await b.open('SubscribeToTask', { id: asked.id, tenant }));
  const snapshot = await subscription.next();
  const answer = sendParams('Ada', { message: { taskId: asked.id } });
  ok(await b.call('SendMessage', { ...answer, tenant }));
  const followed = [...(snapshot ? [snapshot] : []), ...(await subscription.rest())];

  const listed = ok(await b.call('ListTasks', { tenant, includeArtifacts: true }));
  const missing = errorOf(await b.call('GetTask', { id: uid('missing'), tenant }));
  const invalid = errorOf(await b.call('GetTask', { id: blocking.id, historyLength: -1, tenant }));
  return {
    blocking,
    reply,
    streamed: payloads(streamed.events),
    got,
    canceled,
    subscribed: payloads(followed),
    listed,
    missing: errorView(missing),
    invalid: errorView(invalid),
  };
}

/** Polls GetTask until the task is WORKING (the agent runs in the background). */
async function working(b: BindingDriver, id: string, tenant: string): Promise<void> {
  for (const deadline = Date.now() + 5000; Date.now() < deadline; await sleep(10)) {
    const task = shape(WireTask, ok(await b.call('GetTask', { id, tenant })));
    if (task.status.state === 'TASK_STATE_WORKING') return;
  }
  expect.fail(`task ${id} never started working`);
}

/** Replaces generated ids (by first appearance, keys sorted) and timestamps with placeholders. */
function normalise(value: unknown): unknown {
  const ids = new Map<string, string>();
  const collect = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(collect);
    else if (typeof node === 'object' && node !== null) {
      for (const key of Object.keys(node).sort()) {
        const child = (node as Record<string, unknown>)[key];
        if (ID_KEYS.has(key) && typeof child === 'string' && !ids.has(child))
          ids.set(child, `<id ${ids.size + 1}>`);
        collect(child);
      }
    }
  };
  collect(value);
  const replace = (node: unknown, key?: string): unknown => {
    if (typeof node === 'string') {
      if (key === 'timestamp') return '<timestamp>';
      let text = node;
      for (const [id, placeholder] of ids) text = text.split(id).join(placeholder);
      return text;
    }
    if (Array.isArray(node)) return node.map((item) => replace(item));
    if (typeof node === 'object' && node !== null) {
      const entries = Object.entries(node).map(([k, v]) => [k, replace(v, k)] as const);
      return Object.fromEntries(entries);
    }
    return node;
  };
  return replace(value);
}

serverSuite(
  'equivalence of the bindings',
  () => startServer(agent),
  (server) => {
    verifiesServer(
      [48, 185, 186, 187],
      'one scenario gives equal results on JSON-RPC, HTTP+JSON and gRPC, step by step',
      async () => {
        const results = new Map<BindingName, Record<string, unknown>>();
        // 1.0 bindings: the scenario lists tasks (ListTasks is 1.0 only); data-model.test.ts
        // reads one task over every binding, 0.3 included.
        for (const binding of V1_BINDINGS) {
          const result = normalise(await scenario(server.driver(binding)));
          results.set(binding, result as Record<string, unknown>);
        }
        const [first, ...others] = V1_BINDINGS;
        const reference = results.get(first ?? 'JSONRPC') ?? {};
        expect(Object.keys(reference)).toHaveLength(9);
        for (const binding of others) {
          const result = results.get(binding) ?? {};
          for (const step of Object.keys(reference)) {
            expect(result[step], `${step}: ${binding} vs ${first ?? ''}`).toEqual(reference[step]);
          }
        }
        expect(server.running.internalErrors).toEqual([]);
      },
      { timeout: 20_000 },
    );
  },
);
